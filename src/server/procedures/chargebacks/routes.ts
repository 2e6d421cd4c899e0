import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminChargebacksSchema,
  chargebackParamsSchema,
  CHARGEBACK_MESSAGES,
  submitEvidenceResponseSchema,
  type AdminChargeback,
  liftMoneyLockBodySchema,
  liftMoneyLockParamsSchema,
  liftMoneyLockResponseSchema,
  sandboxDisputeBodySchema,
  sandboxDisputeCloseBodySchema,
  sandboxDisputeCloseResponseSchema,
  sandboxDisputeParamsSchema,
  sandboxDisputeResponseSchema,
} from '#shared/contracts/chargebacks.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { cardDisputes, type CardDispute } from '../../db/schema/card-disputes.ts';
import type { CardFraudWarning } from '../../db/schema/card-refunds.ts';
import { payments } from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import {
  findPayment,
  selectPaymentProviders,
  type CardDisputeReport,
  type CardFraudWarningReport,
  type DisputeRecorder,
} from '../../features/payments/index.ts';
import type { PeriodicWorker } from '../../lib/periodic-worker.ts';
import { requireUser } from '../../plugins/access.ts';
import { cardRefundRoutes } from './card-refund-routes.ts';
import { startCardRefundWorker } from './card-refunds.ts';
import { recordDispute } from './disputes.ts';
import { recordFraudWarning } from './fraud-warnings.ts';
import { startEvidenceWorker, submitEvidenceByAdmin } from './evidence.ts';
import { liftMoneyLockByAdmin } from './money-lock.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** A bank's time to take evidence in the sandbox: Stripe's usual week or so. */
const SANDBOX_EVIDENCE_DAYS = 7;
const SANDBOX = 'sandbox-card';
const ADMIN_LIST_MAX = 200;

export interface Chargebacks {
  /** Where the payment routes send Stripe's dispute events. */
  recorder: DisputeRecorder;
  routes: FastifyPluginAsyncZod;
}

function toAdminChargeback(row: {
  dispute: CardDispute;
  username: string;
  paymentIntentId: string;
}): AdminChargeback {
  const { dispute } = row;
  return {
    id: dispute.providerDisputeId,
    userId: dispute.userId,
    username: row.username,
    paymentIntentId: row.paymentIntentId,
    amount: centsToDollarNumber(dispute.amountCents),
    reason: dispute.reason,
    status: dispute.providerStatus,
    outcome: dispute.outcome,
    evidenceDueBy: dispute.evidenceDueBy?.toISOString() ?? null,
    evidence: dispute.evidence,
    evidenceStagedAt: dispute.evidenceStagedAt?.toISOString() ?? null,
    evidenceSubmittedAt: dispute.evidenceSubmittedAt?.toISOString() ?? null,
    submittedAutomatically:
      dispute.evidenceSubmittedAt !== null && dispute.evidenceSubmittedBy === null,
    createdAt: dispute.createdAt.toISOString(),
  };
}

/**
 * Card disputes (docs/chargebacks.md): the recorder of Stripe's dispute events; the evidence
 * worker (every `evidenceEveryMs`, and at once after a new dispute); the admin's CHARGEBACKS tab,
 * SUBMIT and LIFT LOCK; and, while the card sandbox is the provider, its stand-ins for a bank's
 * dispute and its close, which do what Stripe's events do.
 */
export function createChargebacks(
  ctx: AppContext,
  log: FastifyBaseLogger,
  options: { evidenceEveryMs?: number | undefined; refundEveryMs?: number | undefined } = {},
): Chargebacks {
  const { card } = selectPaymentProviders(ctx.env, ctx.db, ctx.clock);
  let worker: PeriodicWorker | undefined;
  /** Records a report; a dispute whose evidence is not staged yet wakes the worker. */
  const record = async (
    uow: UnitOfWork,
    provider: 'stripe' | 'sandbox-card',
    report: CardDisputeReport,
  ): Promise<CardDispute | null> => {
    const dispute = await recordDispute(ctx, uow, log, provider, report);
    if (dispute?.outcome === 'open' && dispute.evidenceStagedAt === null) {
      uow.afterCommit(() => worker?.wake());
    }
    return dispute;
  };
  let refundWorker: PeriodicWorker | undefined;
  const wakeRefunds = () => refundWorker?.wake();
  /** Records a warning; a refund it holds wakes the refund worker. */
  const recordWarning = async (
    uow: UnitOfWork,
    provider: 'stripe' | 'sandbox-card',
    report: CardFraudWarningReport,
  ): Promise<CardFraudWarning | null> => {
    const warning = await recordFraudWarning(ctx, uow, log, provider, report);
    if (warning?.action === 'refunded') uow.afterCommit(wakeRefunds);
    return warning;
  };
  const recorder: DisputeRecorder = {
    async record(uow, provider, report) {
      await record(uow, provider, report);
    },
    async recordFraudWarning(uow, provider, report) {
      await recordWarning(uow, provider, report);
    },
  };

  const routes: FastifyPluginAsyncZod = async (app) => {
    const { evidenceEveryMs, refundEveryMs } = options;
    if (evidenceEveryMs) {
      app.addHook('onReady', async () => {
        worker = startEvidenceWorker(ctx, card, app.log, evidenceEveryMs);
      });
      app.addHook('onClose', async () => worker?.stop());
    }
    if (refundEveryMs) {
      app.addHook('onReady', async () => {
        refundWorker = startCardRefundWorker(ctx, card, app.log, refundEveryMs);
        // Refunds a stopped instance left pending are taken up at once, not a tick later.
        refundWorker.wake();
      });
      app.addHook('onClose', async () => refundWorker?.stop());
    }
    await app.register(
      cardRefundRoutes(ctx, {
        sandbox: card.mode === 'sandbox',
        wake: wakeRefunds,
        recordFraudWarning: recordWarning,
      }),
    );

    app.get(
      '/api/admin/chargebacks',
      {
        config: { access: 'admin' },
        schema: { response: { 200: adminChargebacksSchema, ...errors } },
      },
      async () => {
        const rows = await ctx.db
          .select({
            dispute: cardDisputes,
            username: users.username,
            paymentIntentId: payments.providerPaymentId,
          })
          .from(cardDisputes)
          .innerJoin(users, eq(users.id, cardDisputes.userId))
          .innerJoin(payments, eq(payments.id, cardDisputes.paymentId))
          .orderBy(desc(cardDisputes.id))
          .limit(ADMIN_LIST_MAX);
        return rows.map(toAdminChargeback);
      },
    );

    app.post(
      '/api/admin/chargebacks/:id/submit',
      {
        config: { access: 'admin' },
        schema: {
          params: chargebackParamsSchema,
          response: { 200: submitEvidenceResponseSchema, ...errors, 503: errorBodySchema },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await submitEvidenceByAdmin(ctx, card, request.params.id, admin.id);
        return { message: CHARGEBACK_MESSAGES.submitted };
      },
    );

    app.post(
      '/api/admin/users/:id/money-lock/lift',
      {
        config: { access: 'admin' },
        schema: {
          params: liftMoneyLockParamsSchema,
          body: liftMoneyLockBodySchema,
          response: { 200: liftMoneyLockResponseSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await liftMoneyLockByAdmin(ctx, {
          adminId: admin.id,
          userId: request.params.id,
          note: request.body?.note || undefined,
        });
        return { message: CHARGEBACK_MESSAGES.lifted, userId: request.params.id };
      },
    );

    if (card.mode !== 'sandbox') return;

    app.post(
      '/api/sandbox/card/disputes',
      {
        config: { access: 'admin' },
        schema: {
          body: sandboxDisputeBodySchema,
          response: { 201: sandboxDisputeResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { paymentIntentId } = request.body;
        const payment = await findPayment(ctx.db, SANDBOX, paymentIntentId);
        if (!payment || payment.creditedAmountCents === null) {
          throw new AppError('NOT_FOUND', CHARGEBACK_MESSAGES.paymentNotFound);
        }
        const id = `dp_sandbox_${randomBytes(12).toString('hex')}`;
        const now = ctx.clock();
        const dispute = await inTransaction(ctx.db, (uow) =>
          record(uow, SANDBOX, {
            disputeId: id,
            paymentIntentId,
            amountCents: payment.creditedAmountCents ?? 0n,
            currency: payment.currency,
            reason: 'fraudulent',
            status: 'needs_response',
            evidenceDueBy: new Date(now.getTime() + SANDBOX_EVIDENCE_DAYS * 86_400_000),
            fundsReinstated: false,
            reportedAt: now,
          }),
        );
        // Stripe allows one dispute per payment; the sandbox says so instead of changing nothing.
        if (!dispute || dispute.providerDisputeId !== id) {
          throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.alreadyDisputed);
        }
        return reply.code(201).send({ id });
      },
    );

    app.post(
      '/api/sandbox/card/disputes/:id/close',
      {
        config: { access: 'admin' },
        schema: {
          params: sandboxDisputeParamsSchema,
          body: sandboxDisputeCloseBodySchema,
          response: { 200: sandboxDisputeCloseResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const [found] = await ctx.db
          .select({ dispute: cardDisputes, paymentIntentId: payments.providerPaymentId })
          .from(cardDisputes)
          .innerJoin(payments, eq(payments.id, cardDisputes.paymentId))
          .where(and(eq(cardDisputes.provider, SANDBOX), eq(cardDisputes.providerDisputeId, id)));
        if (!found) throw new AppError('NOT_FOUND', CHARGEBACK_MESSAGES.disputeNotFound);
        const { dispute, paymentIntentId } = found;
        if (dispute.outcome !== 'open') {
          throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.alreadyClosed);
        }
        // Two closes at once: the first decides, and the second answers what it decided.
        const closed = await inTransaction(ctx.db, (uow) =>
          record(uow, SANDBOX, {
            disputeId: id,
            paymentIntentId,
            amountCents: dispute.amountCents,
            currency: 'usd',
            reason: dispute.reason,
            status: request.body.status,
            evidenceDueBy: dispute.evidenceDueBy,
            fundsReinstated: false,
            reportedAt: ctx.clock(),
          }),
        );
        const status = closed && closed.outcome !== 'open' ? closed.outcome : request.body.status;
        return { id, status };
      },
    );
  };
  return { recorder, routes };
}
