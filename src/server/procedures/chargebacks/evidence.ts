import { and, desc, eq, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { cardDisputes, type CardDispute } from '../../db/schema/card-disputes.ts';
import { payments } from '../../db/schema/payments.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../features/audit/index.ts';
import { stakedSince } from '../../features/ledger/index.ts';
import {
  PaymentProviderError,
  type CardProvider,
  type DisputeEvidence,
} from '../../features/payments/index.ts';
import { startPeriodicWorker, type PeriodicWorker } from '../../lib/periodic-worker.ts';
import { CHARGEBACK_MESSAGES } from '#shared/contracts/chargebacks.ts';

/** Evidence unsubmitted this close to the bank's deadline is submitted by itself. */
export const AUTO_SUBMIT_BEFORE_MS = 48 * 3_600_000;
/** How long a worker or an admin holds a dispute while it talks to the provider. */
const CLAIM_MS = 2 * 60_000;
const EVIDENCE_BATCH = 20;
/** How often the server's worker looks, besides the wake of a new dispute. */
export const DISPUTE_EVIDENCE_INTERVAL_MS = 5 * 60_000;
/** The sign-ins the bank is shown: the newest, before the dispute. */
const SIGN_INS_SHOWN = 20;

const day = (at: Date): string => at.toISOString().slice(0, 10);
const minute = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The evidence of a dispute, from our records (docs/chargebacks.md): who the account is, its
 * sign-ins with times, addresses, places and devices, the address it paid from, the 21+ and
 * terms acceptance at registration, and what it did with the money afterwards.
 */
export async function buildEvidence(
  ctx: AppContext,
  dispute: CardDispute,
): Promise<DisputeEvidence> {
  const [found] = await ctx.db
    .select({ payment: payments, user: users })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(eq(payments.id, dispute.paymentId));
  if (!found) throw new Error(`dispute ${dispute.providerDisputeId} names no payment`);
  const { payment, user } = found;
  const signIns = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), lte(sessions.createdAt, dispute.createdAt)))
    .orderBy(desc(sessions.createdAt))
    .limit(SIGN_INS_SHOWN);
  const paidFrom = signIns.find((signIn) => signIn.createdAt <= payment.createdAt);
  const played = await stakedSince(ctx.db, user.id, payment.createdAt);
  const log = signIns.map((signIn) =>
    [
      minute(signIn.createdAt),
      signIn.ipAddress ?? 'address unknown',
      signIn.placeLabel ?? 'place unknown',
      signIn.deviceHash ? `device ${signIn.deviceHash.slice(0, 12)}` : 'device unknown',
      signIn.userAgent ?? '',
    ]
      .filter((part) => part !== '')
      .join(' · '),
  );
  return {
    customer_name: user.username,
    customer_email_address: user.email,
    customer_purchase_ip: paidFrom?.ipAddress ?? null,
    access_activity_log:
      log.length > 0 ? `Sign-ins to the account, newest first:\n${log.join('\n')}` : 'No sign-ins.',
    product_description:
      'A deposit to the cardholder’s own balance on a skill-gaming platform, where adults play ' +
      'console matches against each other for money.',
    service_date: day(payment.createdAt),
    uncategorized_text:
      `The account ${user.username} was opened on ${day(user.createdAt)}, confirming the ` +
      'holder is 21 or older and in a permitted location, and accepting the terms. ' +
      `The payment of ${formatCents(payment.creditedAmountCents ?? dispute.amountCents)} was ` +
      `made on ${minute(payment.createdAt)} while signed in` +
      (paidFrom?.ipAddress ? ` from ${paidFrom.ipAddress}` : '') +
      `. Since then the account staked ${formatCents(played.stakedCents)} in ${played.stakes} ` +
      'match(es) and tournament entries it chose to play.',
  };
}

/** Takes the dispute for one conversation with the provider, if `condition` holds and nobody has it. */
async function claim(
  ctx: AppContext,
  id: number,
  condition: SQL | undefined,
): Promise<CardDispute | undefined> {
  const now = ctx.clock();
  const [claimed] = await ctx.db
    .update(cardDisputes)
    .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS) })
    .where(
      and(
        eq(cardDisputes.id, id),
        eq(cardDisputes.outcome, 'open'),
        or(isNull(cardDisputes.claimedUntil), lt(cardDisputes.claimedUntil, now)),
        condition,
      ),
    )
    .returning();
  return claimed;
}

async function release(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.update(cardDisputes).set({ claimedUntil: null }).where(eq(cardDisputes.id, id));
}

/**
 * Stages the evidence at the provider (`submit: false`), once per dispute. A failure keeps the
 * claim until it lapses, so the worker tries again after it, not in a loop.
 */
async function stageEvidence(ctx: AppContext, card: CardProvider, id: number): Promise<boolean> {
  const dispute = await claim(ctx, id, isNull(cardDisputes.evidenceStagedAt));
  if (!dispute) return false;
  const evidence = await buildEvidence(ctx, dispute);
  await card.sendDisputeEvidence(dispute.providerDisputeId, evidence, false);
  await ctx.db
    .update(cardDisputes)
    .set({ evidence: { ...evidence }, evidenceStagedAt: ctx.clock(), claimedUntil: null })
    .where(eq(cardDisputes.id, id));
  return true;
}

/**
 * Submits the evidence, once: by an admin (`adminId`), or by itself near the deadline (null).
 * What was staged is what is submitted; evidence never staged is built now. A failure keeps the
 * claim, as when staging.
 */
async function submitEvidence(
  ctx: AppContext,
  card: CardProvider,
  id: number,
  adminId: number | null,
): Promise<boolean> {
  const dispute = await claim(ctx, id, isNull(cardDisputes.evidenceSubmittedAt));
  if (!dispute) return false;
  const evidence =
    (dispute.evidence as DisputeEvidence | null) ?? (await buildEvidence(ctx, dispute));
  await card.sendDisputeEvidence(dispute.providerDisputeId, evidence, true);
  const now = ctx.clock();
  await inTransaction(ctx.db, async ({ tx }) => {
    await tx
      .update(cardDisputes)
      .set({
        evidence: { ...evidence },
        evidenceStagedAt: dispute.evidenceStagedAt ?? now,
        evidenceSubmittedAt: now,
        evidenceSubmittedBy: adminId,
        claimedUntil: null,
      })
      .where(eq(cardDisputes.id, id));
    if (adminId !== null) {
      await recordAudit(tx, {
        actorUserId: adminId,
        action: 'chargeback.evidence_submit',
        target: { type: 'user', id: dispute.userId },
        details: { disputeId: dispute.providerDisputeId, paymentId: dispute.paymentId },
      });
    }
  });
  return true;
}

/** An admin's SUBMIT on the CHARGEBACKS tab. */
export async function submitEvidenceByAdmin(
  ctx: AppContext,
  card: CardProvider,
  providerDisputeId: string,
  adminId: number,
): Promise<void> {
  const [dispute] = await ctx.db
    .select()
    .from(cardDisputes)
    .where(eq(cardDisputes.providerDisputeId, providerDisputeId));
  if (!dispute) throw new AppError('NOT_FOUND', CHARGEBACK_MESSAGES.disputeNotFound);
  if (dispute.outcome !== 'open') throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.alreadyClosed);
  if (dispute.evidenceSubmittedAt) {
    throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.alreadySubmitted);
  }
  let submitted: boolean;
  try {
    submitted = await submitEvidence(ctx, card, dispute.id, adminId);
  } catch (error) {
    // The admin may try again at once: the claim goes with the failure.
    await release(ctx, dispute.id);
    if (error instanceof PaymentProviderError) {
      throw new AppError('SERVICE_UNAVAILABLE', CHARGEBACK_MESSAGES.providerUnavailable);
    }
    throw error;
  }
  if (!submitted) throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.beingSubmitted);
}

/**
 * One pass of the evidence worker: stages what was never staged, and submits what nobody
 * submitted within 48 hours of the deadline. Each dispute is claimed first, so across instances
 * and restarts the provider hears of each step once. Answers how many disputes it took.
 */
export async function runEvidencePass(
  ctx: AppContext,
  card: CardProvider,
  log: FastifyBaseLogger,
): Promise<number> {
  const now = ctx.clock();
  const due = new Date(now.getTime() + AUTO_SUBMIT_BEFORE_MS);
  const rows = await ctx.db
    .select({
      id: cardDisputes.id,
      staged: sql<boolean>`${cardDisputes.evidenceStagedAt} is not null`,
      submitDue: sql<boolean>`${cardDisputes.evidenceSubmittedAt} is null
        and ${cardDisputes.evidenceDueBy} <= ${due.toISOString()}::timestamptz`,
    })
    .from(cardDisputes)
    .where(
      and(
        eq(cardDisputes.outcome, 'open'),
        or(isNull(cardDisputes.claimedUntil), lt(cardDisputes.claimedUntil, now)),
        or(
          isNull(cardDisputes.evidenceStagedAt),
          and(isNull(cardDisputes.evidenceSubmittedAt), lte(cardDisputes.evidenceDueBy, due)),
        ),
      ),
    )
    .orderBy(cardDisputes.evidenceDueBy)
    .limit(EVIDENCE_BATCH);
  for (const row of rows) {
    try {
      if (row.submitDue) {
        if (await submitEvidence(ctx, card, row.id, null)) {
          log.info({ disputeId: row.id }, 'dispute evidence submitted before the deadline');
        }
      } else if (!row.staged) {
        await stageEvidence(ctx, card, row.id);
      }
    } catch (error) {
      log.warn({ err: error, disputeId: row.id }, 'dispute evidence not sent: tried again later');
    }
  }
  return rows.length;
}

export function startEvidenceWorker(
  ctx: AppContext,
  card: CardProvider,
  log: FastifyBaseLogger,
  intervalMs: number,
): PeriodicWorker {
  return startPeriodicWorker({
    pass: () => runEvidencePass(ctx, card, log),
    batch: EVIDENCE_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'dispute evidence worker failed'),
  });
}
