import { eq } from 'drizzle-orm';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { payouts, type Payout, type PayoutStage } from '../../db/schema/payouts.ts';
import { users } from '../../db/schema/users.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { EXTERNAL_CRYPTO, payoutHold, userWallet } from '../ledger/index.ts';
import { enqueueMail } from '../mail/index.ts';
import { notify } from '../notifications/index.ts';
import type { PayoutProvider } from './providers/types.ts';
import { lockWaitingPayoutsOf } from './repository.ts';

/**
 * A payout's stages as the player is told of them, and its end: what the admin's decisions
 * (service.ts) and the sender's provider answers (sender.ts) both do.
 */

/**
 * The sender of docs/payouts.md. Every instance runs one; each pass claims due payouts one at a
 * time (`SKIP LOCKED`), so two instances never hold the same payout, and a claim is a lease: a
 * sender that dies lets it lapse and another takes the payout over. What makes a payout leave once
 * is not the lease but the look-up that starts every attempt: the provider is asked for the
 * withdrawal made with this payout's external id before a new one is made, so an attempt after a
 * crash or a lost answer finds the first one (decision record 0021).
 */
export interface PayoutSender {
  /** Null when payouts cannot be sent without a person (real keys, no payout sign-in). */
  readonly provider: PayoutProvider | null;
  /** Runs a pass now (after a payout was queued), instead of at the next tick. */
  wake(): void;
}

/** Who decides: an admin, or the provider's answer (no person: `adminId` null). */
export type PayoutDecision =
  | { outcome: 'complete'; adminId: number | null; note?: string | undefined }
  | {
      outcome: 'fail';
      adminId: number | null;
      reason: string;
      /** What became of the amount, told to the player; "The amount is back in your balance." */
      returned?: string | undefined;
    };

const STAGE_NEWS: Partial<
  Record<PayoutStage, (amount: string, id: number) => { title: string; body: string }>
> = {
  queued: (amount, id) => ({
    title: `Your payout of ${amount} is approved`,
    body: `Payout #${id} of ${amount} is queued and will be sent in a few minutes.`,
  }),
  sending: (amount, id) => ({
    title: `Your payout of ${amount} is being sent`,
    body: `Payout #${id} of ${amount} is with the payout provider.`,
  }),
  sent: (amount, id) => ({
    title: `Your payout of ${amount} is on the chain`,
    body: `Payout #${id} of ${amount} has left: it completes when the network confirms it.`,
  }),
};

/** Tells the player a payout moved to `stage`, once per stage (docs/payouts.md). */
export async function notifyStage(
  ctx: AppContext,
  uow: UnitOfWork,
  payout: Payout,
  stage: PayoutStage,
): Promise<void> {
  const news = STAGE_NEWS[stage];
  if (!news) return;
  await notify(uow, ctx.bus, {
    userId: payout.userId,
    kind: 'payout_update',
    ...news(formatCents(payout.amountCents), payout.id),
    dedupeKey: `payout-${stage}:${payout.id}`,
    mail: false,
  });
}

/**
 * Decides a pending payout that the caller has locked: completing sends the hold out to
 * `external:crypto`, failing returns it to the wallet. Each has its own idempotency key, and the
 * row lock plus the status check let only one decision ever happen.
 */
export async function applyPayoutDecision(
  ctx: AppContext,
  uow: UnitOfWork,
  payout: Payout,
  decision: PayoutDecision,
): Promise<void> {
  const complete = decision.outcome === 'complete';
  const hold = payoutHold(payout.id);
  const memo = decision.outcome === 'complete' ? decision.note : decision.reason;
  await ctx.ledger.post(uow, {
    idempotencyKey: complete ? `payout:complete:${payout.id}` : `payout:release:${payout.id}`,
    kind: complete ? 'payout_complete' : 'payout_release',
    reference: { type: 'payout', id: payout.id },
    ...(decision.adminId === null ? {} : { actorUserId: decision.adminId }),
    ...(memo ? { memo } : {}),
    entries: [
      { account: hold, direction: 'debit', amountCents: payout.amountCents },
      {
        account: complete ? EXTERNAL_CRYPTO : userWallet(payout.userId),
        direction: 'credit',
        amountCents: payout.amountCents,
      },
    ],
  });
  const now = ctx.clock();
  const ended = {
    decidedBy: decision.adminId,
    decidedAt: now,
    claimToken: null,
    nextAttemptAt: null,
  };
  await uow.tx
    .update(payouts)
    .set(
      complete
        ? { status: 'completed', stage: 'completed', completedAt: now, ...ended }
        : { status: 'failed', stage: 'failed', failureReason: decision.reason, ...ended },
    )
    .where(eq(payouts.id, payout.id));
}

const BACK_IN_BALANCE = 'The amount is back in your balance.';

async function decisionMail(uow: UnitOfWork, payout: Payout, decision: PayoutDecision) {
  const [owner] = await uow.tx
    .select({
      username: users.username,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .where(eq(users.id, payout.userId))
    .limit(1);
  // Payout notices go only to an address the player has proven (docs/accounts.md#account-security).
  if (!owner?.email || !owner.emailVerifiedAt) return;
  const amount = formatCents(payout.amountCents);
  await enqueueMail(uow.tx, [
    {
      dedupeKey: `payout-${decision.outcome}:${payout.id}`,
      recipient: owner.email,
      subject:
        decision.outcome === 'complete'
          ? `Your payout of ${amount} has been sent`
          : `Your payout of ${amount} could not be completed`,
      body:
        decision.outcome === 'complete'
          ? `Hi ${owner.username}, your payout #${payout.id} of ${amount} has been sent to ` +
            `${payout.paymentDetails}.`
          : `Hi ${owner.username}, your payout #${payout.id} of ${amount} could not be completed ` +
            `(${decision.reason}). ${decision.returned ?? BACK_IN_BALANCE}`,
      metadata: { payoutId: payout.id, userId: payout.userId },
    },
  ]);
}

/**
 * Ends a payout the caller has locked, with its mail and notification: by an admin's hand, or by
 * the provider's answer to the sender or to an IPN. The audit entry is the caller's.
 */
export async function endPayout(
  ctx: AppContext,
  uow: UnitOfWork,
  payout: Payout,
  decision: PayoutDecision,
): Promise<void> {
  await applyPayoutDecision(ctx, uow, payout, decision);
  await decisionMail(uow, payout, decision);
  const amount = formatCents(payout.amountCents);
  await notify(uow, ctx.bus, {
    userId: payout.userId,
    ...(decision.outcome === 'complete'
      ? {
          kind: 'payout_completed',
          title: `Your payout of ${amount} has been sent`,
          body: `Payout #${payout.id} of ${amount} has been sent to your wallet.`,
        }
      : {
          kind: 'payout_failed',
          title: `Your payout of ${amount} could not be completed`,
          body: `Payout #${payout.id} could not be completed (${decision.reason}). ${decision.returned ?? BACK_IN_BALANCE}`,
        }),
    dedupeKey: `payout-${decision.outcome}:${payout.id}`,
    mail: false,
  });
}

/**
 * Returns to the wallet every payout of the player that has not left yet: waiting for an admin or
 * queued for the sender (docs/chargebacks.md). One the sender has claimed is on its way and is
 * left to finish: a claim in flight holds the row, and once it commits the row is no longer
 * queued, so it is passed over.
 */
export async function returnWaitingPayouts(
  ctx: AppContext,
  uow: UnitOfWork,
  userId: number,
  reason: string,
  returned?: string,
): Promise<void> {
  for (const payout of await lockWaitingPayoutsOf(uow.tx, userId)) {
    await endPayout(ctx, uow, payout, { outcome: 'fail', adminId: null, reason, returned });
  }
}
