import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CARD_REFUND_MESSAGES,
  cardRefundBodySchema,
  cardRefundResponseSchema,
  cardRefundSchema,
  sandboxFraudWarningBodySchema,
  sandboxFraudWarningResponseSchema,
  type CardRefundView,
} from '#shared/contracts/card-refunds.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { centsToDollarNumber, formatCents } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import type { CardRefund, CardFraudWarning } from '../../db/schema/card-refunds.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { findPayment, type CardFraudWarningReport } from '../../features/payments/index.ts';
import { requireUser } from '../../plugins/access.ts';
import { listCardRefunds, requestCardRefund } from './card-refunds.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

const SANDBOX = 'sandbox-card';

function toCardRefundView(refund: CardRefund): CardRefundView {
  return {
    id: refund.id,
    amount: centsToDollarNumber(refund.amountCents),
    status: refund.status,
    failureReason: refund.failureReason,
    createdAt: refund.createdAt.toISOString(),
    completedAt: refund.completedAt?.toISOString() ?? null,
  };
}

/**
 * REFUND TO CARD and the player's list of card refunds (docs/chargebacks.md), and, while the card
 * sandbox is the provider, its stand-in for a card network's early fraud warning. `wake` runs the
 * refund worker once a refund is held; `recordFraudWarning` is the recorder's.
 */
export const cardRefundRoutes =
  (
    ctx: AppContext,
    options: {
      sandbox: boolean;
      wake: () => void;
      recordFraudWarning: (
        uow: UnitOfWork,
        provider: 'stripe' | 'sandbox-card',
        report: CardFraudWarningReport,
      ) => Promise<CardFraudWarning | null>;
    },
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/payouts/card-refunds',
      {
        config: { access: 'user' },
        schema: { response: { 200: z.array(cardRefundSchema), ...errors } },
      },
      async (request) => {
        const user = requireUser(request);
        return (await listCardRefunds(ctx, user.id)).map(toCardRefundView);
      },
    );

    app.post(
      '/api/payouts/card-refund',
      {
        config: { access: 'user' },
        schema: {
          headers: z.object({ 'idempotency-key': z.string().min(8).max(200).optional() }),
          body: cardRefundBodySchema,
          response: { 201: cardRefundResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const { refunds, balanceCents, replayed } = await requestCardRefund(
          ctx,
          user.id,
          request.body.amount,
          request.headers['idempotency-key'],
        );
        if (!replayed) options.wake();
        const total = refunds.reduce((sum, refund) => sum + refund.amountCents, 0n);
        request.log.info(
          { userId: user.id, cardRefundIds: refunds.map((refund) => refund.id) },
          'card refund requested',
        );
        return reply.code(201).send({
          refunds: refunds.map(toCardRefundView),
          balance: centsToDollarNumber(balanceCents),
          message: CARD_REFUND_MESSAGES.requested(formatCents(total)),
        });
      },
    );

    if (!options.sandbox) return;

    app.post(
      '/api/sandbox/card/early-fraud-warnings',
      {
        config: { access: 'admin' },
        schema: {
          body: sandboxFraudWarningBodySchema,
          response: { 201: sandboxFraudWarningResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { paymentIntentId } = request.body;
        const payment = await findPayment(ctx.db, SANDBOX, paymentIntentId);
        if (!payment || payment.creditedAmountCents === null) {
          throw new AppError('NOT_FOUND', CARD_REFUND_MESSAGES.paymentNotFound);
        }
        const id = `issfr_sandbox_${randomBytes(12).toString('hex')}`;
        const warning = await inTransaction(ctx.db, (uow) =>
          options.recordFraudWarning(uow, SANDBOX, {
            warningId: id,
            paymentIntentId,
            fraudType: 'made_with_stolen_card',
          }),
        );
        if (!warning) throw new AppError('NOT_FOUND', CARD_REFUND_MESSAGES.paymentNotFound);
        return reply.code(201).send({ id, action: warning.action });
      },
    );
  };
