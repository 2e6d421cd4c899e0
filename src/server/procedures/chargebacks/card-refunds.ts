import { and, asc, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CARD_REFUND_MESSAGES } from '#shared/contracts/card-refunds.ts';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { cardRefunds, type CardRefund } from '../../db/schema/card-refunds.ts';
import { payments } from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockUser, requireMoneyUnlocked } from '../../features/accounts/index.ts';
import {
  EXTERNAL_CARD,
  HOUSE_UNCLAIMED,
  cardRefundHold,
  getUserBalanceCents,
  userWallet,
} from '../../features/ledger/index.ts';
import { notify } from '../../features/notifications/index.ts';
import { PaymentProviderError, type CardProvider } from '../../features/payments/index.ts';
import { lockWithdrawalsOf, payoutLimitsOf } from '../../features/payouts/index.ts';
import { startPeriodicWorker, type PeriodicWorker } from '../../lib/periodic-worker.ts';

/** How long the worker holds a refund while it talks to the provider. */
const CLAIM_MS = 2 * 60_000;
const REFUND_BATCH = 20;
/** How often the server's worker looks, besides the wake of a new refund. */
export const CARD_REFUND_INTERVAL_MS = 60_000;

/** The key a refund is made with at the provider, and found again by. */
export const refundKeyOf = (refundId: number): string => `card-refund:${refundId}`;

/**
 * Records a refund of part of one card payment and moves its amount from the wallet to the
 * refund's hold, in the caller's transaction; the worker then makes it at the provider. The
 * ledger refuses the hold when the wallet lacks the money, and that rolls the row back with it.
 */
export async function holdCardRefund(
  ctx: AppContext,
  uow: UnitOfWork,
  values: {
    userId: number;
    paymentId: number;
    amountCents: bigint;
    requestKey?: string | undefined;
    fraudWarningId?: number | undefined;
  },
): Promise<{ refund: CardRefund; balanceCents: bigint }> {
  const now = ctx.clock();
  const [refund] = await uow.tx
    .insert(cardRefunds)
    .values({ ...values, createdAt: now, updatedAt: now })
    .returning();
  if (!refund) throw new Error('insert returned no card refund');
  const posted = await ctx.ledger.post(uow, {
    idempotencyKey: `card-refund:hold:${refund.id}`,
    kind: 'card_refund_hold',
    reference: { type: 'payment', id: refund.paymentId },
    entries: [
      { account: userWallet(refund.userId), direction: 'debit', amountCents: refund.amountCents },
      { account: cardRefundHold(refund.id), direction: 'credit', amountCents: refund.amountCents },
    ],
  });
  const balanceCents = posted.balancesAfter.get(userWallet(refund.userId));
  if (balanceCents === undefined) throw new Error('the card refund hold did not touch the wallet');
  return { refund, balanceCents };
}

/**
 * REFUND TO CARD (docs/chargebacks.md): gives `amountCents` of the player's card money not yet
 * cleared back to the cards it came from, newest payment first, one refund row per payment. The
 * player's withdrawals are serialised (with payouts too) and the wallet is locked before the
 * limits are read, so concurrent requests each judge what the one before left; a request carrying
 * an `Idempotency-Key` already served answers the refunds it made. A player whose money is locked
 * is refused: a dispute may be taking that money already.
 */
export async function requestCardRefund(
  ctx: AppContext,
  userId: number,
  amountCents: bigint,
  requestKey: string | undefined,
): Promise<{ refunds: CardRefund[]; balanceCents: bigint; replayed: boolean }> {
  return inTransaction(ctx.db, async (uow) => {
    await lockWithdrawalsOf(uow.tx, userId);
    if (requestKey) {
      const made = await uow.tx
        .select()
        .from(cardRefunds)
        .where(and(eq(cardRefunds.userId, userId), eq(cardRefunds.requestKey, requestKey)))
        .orderBy(asc(cardRefunds.id));
      if (made.length > 0) {
        const balanceCents = await getUserBalanceCents(uow.tx, userId);
        return { refunds: made, balanceCents, replayed: true };
      }
    }
    const user = await lockUser(uow.tx, userId, 'share');
    if (!user) throw new Error(`user ${userId} has a session but no row`);
    requireMoneyUnlocked(user);
    const limits = await payoutLimitsOf(ctx, uow.tx, userId, { lockWallet: true });
    if (amountCents > limits.refundableToCardCents) {
      const message =
        limits.refundableToCardCents === 0n
          ? CARD_REFUND_MESSAGES.nothingRefundable
          : CARD_REFUND_MESSAGES.tooMuch(formatCents(limits.refundableToCardCents));
      throw new AppError('VALIDATION_FAILED', message, { fields: { amount: message } });
    }
    const refunds: CardRefund[] = [];
    let balanceCents = limits.availableCents;
    let left = amountCents;
    for (const payment of limits.unclearedPayments) {
      if (left === 0n) break;
      const slice = payment.amountCents < left ? payment.amountCents : left;
      const held = await holdCardRefund(ctx, uow, {
        userId,
        paymentId: payment.paymentId,
        amountCents: slice,
        requestKey,
      });
      refunds.push(held.refund);
      balanceCents = held.balanceCents;
      left -= slice;
    }
    if (left !== 0n) throw new Error(`card refund of ${amountCents} cents left ${left} unplaced`);
    return { refunds, balanceCents, replayed: false };
  });
}

/** The player's card refunds, newest first. */
export function listCardRefunds(ctx: AppContext, userId: number): Promise<CardRefund[]> {
  return ctx.db
    .select()
    .from(cardRefunds)
    .where(eq(cardRefunds.userId, userId))
    .orderBy(desc(cardRefunds.id))
    .limit(100);
}

interface ClaimedRefund {
  refund: CardRefund;
  provider: string;
  paymentIntentId: string;
}

/**
 * Claims the oldest pending refund nobody holds (`SKIP LOCKED`, and a lease in `claimed_until`
 * that a worker which dies lets lapse): two instances never talk to the provider about one refund
 * at once.
 */
async function claimDueRefund(ctx: AppContext): Promise<ClaimedRefund | null> {
  const now = ctx.clock();
  return inTransaction(ctx.db, async ({ tx }) => {
    const [due] = await tx
      .select({ id: cardRefunds.id })
      .from(cardRefunds)
      .where(
        and(
          eq(cardRefunds.status, 'pending'),
          or(isNull(cardRefunds.claimedUntil), lte(cardRefunds.claimedUntil, now)),
        ),
      )
      .orderBy(asc(cardRefunds.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return null;
    const [refund] = await tx
      .update(cardRefunds)
      .set({
        claimedUntil: new Date(now.getTime() + CLAIM_MS),
        attempts: sql`${cardRefunds.attempts} + 1`,
        updatedAt: now,
      })
      .where(eq(cardRefunds.id, due.id))
      .returning();
    if (!refund) throw new Error(`card refund ${due.id} vanished while claimed`);
    const [payment] = await tx
      .select({ provider: payments.provider, paymentIntentId: payments.providerPaymentId })
      .from(payments)
      .where(eq(payments.id, refund.paymentId));
    if (!payment) throw new Error(`card refund ${refund.id} names no payment`);
    return { refund, ...payment };
  });
}

/**
 * Ends a refund by the provider's answer, once: the row is locked and must still be pending. A
 * refund made sends the hold to the card network; one refused returns it to the wallet (to a
 * debt first, by the ledger; to the house's unclaimed account for a closed account).
 */
async function finishRefund(
  ctx: AppContext,
  refundId: number,
  outcome: { status: 'succeeded'; refundId: string } | { status: 'failed'; reason: string },
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const [refund] = await uow.tx
      .select()
      .from(cardRefunds)
      .where(eq(cardRefunds.id, refundId))
      .for('update');
    if (!refund || refund.status !== 'pending') return;
    const made = outcome.status === 'succeeded';
    const [owner] = await uow.tx
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, refund.userId))
      .for('share');
    const back = owner?.deletedAt ? HOUSE_UNCLAIMED : userWallet(refund.userId);
    await ctx.ledger.post(uow, {
      idempotencyKey: made
        ? `card-refund:complete:${refund.id}`
        : `card-refund:release:${refund.id}`,
      kind: made ? 'card_refund' : 'card_refund_release',
      reference: { type: 'payment', id: refund.paymentId },
      ...(made ? {} : { memo: outcome.reason }),
      entries: [
        { account: cardRefundHold(refund.id), direction: 'debit', amountCents: refund.amountCents },
        {
          account: made ? EXTERNAL_CARD : back,
          direction: 'credit',
          amountCents: refund.amountCents,
        },
      ],
    });
    const now = ctx.clock();
    await uow.tx
      .update(cardRefunds)
      .set({
        status: outcome.status,
        ...(made ? { providerRefundId: outcome.refundId } : { failureReason: outcome.reason }),
        claimedUntil: null,
        completedAt: now,
        updatedAt: now,
      })
      .where(eq(cardRefunds.id, refund.id));
    const amount = formatCents(refund.amountCents);
    await notify(uow, ctx.bus, {
      userId: refund.userId,
      ...(made
        ? {
            kind: 'card_refund_completed',
            title: `${amount} was refunded to your card`,
            body: `Card refund #${refund.id} of ${amount} is done. Banks take 5 to 10 days to show it.`,
          }
        : {
            kind: 'card_refund_failed',
            title: `Your card refund of ${amount} could not be made`,
            body: `Card refund #${refund.id} could not be made. The amount is back in your balance.`,
          }),
      dedupeKey: `card-refund-${outcome.status}:${refund.id}`,
      mail: false,
    });
    uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: refund.userId }));
  });
}

/**
 * One pass of the refund worker: claims due refunds one at a time and asks the provider to make
 * each (or to find the one made for it before). A provider that cannot be reached leaves the
 * claim to lapse, and a later pass tries again.
 */
export async function runCardRefundPass(
  ctx: AppContext,
  card: CardProvider,
  log: FastifyBaseLogger,
): Promise<number> {
  let claimed = 0;
  while (claimed < REFUND_BATCH) {
    const due = await claimDueRefund(ctx);
    if (!due) break;
    claimed += 1;
    const { refund } = due;
    if (due.provider !== card.name) {
      log.error(
        { cardRefundId: refund.id, provider: due.provider },
        'card refund of a payment made with another provider: it waits for the provider to return',
      );
      continue;
    }
    try {
      const outcome = await card.refundPayment({
        paymentIntentId: due.paymentIntentId,
        amountCents: refund.amountCents,
        refundKey: refundKeyOf(refund.id),
        reason: refund.fraudWarningId === null ? 'requested_by_customer' : 'fraudulent',
      });
      if (outcome.status === 'pending') {
        // Its claim lapses, and a later pass asks again how the refund ended.
        log.info({ cardRefundId: refund.id }, 'card refund pending at the card network');
        continue;
      }
      await finishRefund(ctx, refund.id, outcome);
      if (outcome.status === 'failed') {
        log.warn({ cardRefundId: refund.id, reason: outcome.reason }, 'card refund refused');
      }
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      if (error.kind === 'not_found') {
        await finishRefund(ctx, refund.id, { status: 'failed', reason: error.message });
        log.error(
          { cardRefundId: refund.id },
          'card refund of a payment the provider does not know',
        );
        continue;
      }
      log.warn({ err: error, cardRefundId: refund.id }, 'card refund not made: tried again later');
    }
  }
  return claimed;
}

export function startCardRefundWorker(
  ctx: AppContext,
  card: CardProvider,
  log: FastifyBaseLogger,
  intervalMs: number,
): PeriodicWorker {
  return startPeriodicWorker({
    pass: () => runCardRefundPass(ctx, card, log),
    batch: REFUND_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'card refund worker failed'),
  });
}
