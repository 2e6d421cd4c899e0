import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatCents } from '#shared/money.ts';
import { disputedPaymentReason, moneyLockMessage } from '#shared/money-lock.ts';
import type { AppContext } from '../../context.ts';
import {
  cardDisputes,
  type CardDispute,
  type DisputeOutcome,
} from '../../db/schema/card-disputes.ts';
import { cardRefunds, type CardRefundStatus } from '../../db/schema/card-refunds.ts';
import { payments, type Payment } from '../../db/schema/payments.ts';
import type { User } from '../../db/schema/users.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockMoney, lockUser } from '../../features/accounts/index.ts';
import {
  EXTERNAL_CARD,
  HOUSE_ADJUSTMENTS,
  HOUSE_UNCLAIMED,
  lockWalletAndDebt,
  playerReceivable,
  postingsOf,
  unclaimedHeldFor,
  userWallet,
  type Entry,
} from '../../features/ledger/index.ts';
import { lockOpenChallengesOf, withdrawOpenLocked } from '../../features/challenges/index.ts';
import { notify } from '../../features/notifications/index.ts';
import { lockOpenEntriesOf, withdrawEntriesLocked } from '../../features/tournaments/index.ts';
import { lockPayment, type CardDisputeReport } from '../../features/payments/index.ts';
import { returnWaitingPayouts } from '../../features/payouts/index.ts';

type CardProviderName = 'stripe' | 'sandbox-card';

/** Stripe's statuses of a dispute decided for the platform; an inquiry closed is one too. */
const WON_STATUSES: ReadonlySet<string> = new Set(['won', 'warning_closed']);

const smaller = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** How a report ends a dispute, if it does. */
function outcomeOf(report: CardDisputeReport): Exclude<DisputeOutcome, 'open'> | null {
  if (report.fundsReinstated || WON_STATUSES.has(report.status)) return 'won';
  if (report.status === 'lost') return 'lost';
  return null;
}

async function lockDispute(
  uow: UnitOfWork,
  provider: CardProviderName,
  disputeId: string,
): Promise<CardDispute | undefined> {
  const [row] = await uow.tx
    .select()
    .from(cardDisputes)
    .where(and(eq(cardDisputes.provider, provider), eq(cardDisputes.providerDisputeId, disputeId)))
    .limit(1)
    .for('update');
  return row;
}

/** What of a payment went back to its card, or is on its way (refunds in `statuses`). */
export async function refundedCentsOf(
  uow: UnitOfWork,
  paymentId: number,
  statuses: CardRefundStatus[],
): Promise<bigint> {
  const [row] = await uow.tx
    .select({ cents: sql<string>`coalesce(sum(${cardRefunds.amountCents}), 0)::text` })
    .from(cardRefunds)
    .where(and(eq(cardRefunds.paymentId, paymentId), inArray(cardRefunds.status, statuses)));
  return BigInt(row?.cents ?? '0');
}

/** What a payout returned by a dispute became: part of what the bank took back. */
const PAYOUT_TOWARDS_CHARGEBACK =
  'The amount went back to your balance, towards the card payment your bank took back.';

/** A transfer's entries without those that would move nothing. */
const entriesOf = (entries: Entry[]): Entry[] => entries.filter((entry) => entry.amountCents > 0n);

/** A player's row and their places in tournaments not started, locked for `gatherMoney`. */
export interface LockedPlayer {
  user: User;
  places: Awaited<ReturnType<typeof lockOpenEntriesOf>>;
}

/**
 * Locks the player before their money is gathered: their places in tournaments not started
 * first, in the order a suspension takes them, then their row (`for no key update`: a
 * notification about them, which only references the row, never waits behind it).
 */
export async function lockPlayerAndPlaces(uow: UnitOfWork, userId: number): Promise<LockedPlayer> {
  const places = await lockOpenEntriesOf(uow, userId);
  const user = await lockUser(uow.tx, userId, 'no key update');
  if (!user) throw new Error(`user ${userId} has a payment but no row`);
  return { user, places };
}

/**
 * Puts the player's money where nobody can take it, in the caller's transaction, before a lock:
 * their payouts that have not left, their open challenges and their places in tournaments not
 * started go back to the wallet, so that no accomplice can take that money from them.
 */
export async function gatherMoney(
  ctx: AppContext,
  uow: UnitOfWork,
  { user, places }: LockedPlayer,
  reason: string,
  payoutsReturned?: string,
): Promise<void> {
  await returnWaitingPayouts(ctx, uow, user.id, reason, payoutsReturned);
  for (const challenge of await lockOpenChallengesOf(uow.tx, user.id)) {
    await withdrawOpenLocked(ctx, uow, challenge, 'money_locked', { memo: reason });
  }
  await withdrawEntriesLocked(
    ctx,
    uow,
    places.map((place) => ({ ...place, cause: 'money_locked' as const })),
  );
}

/**
 * The chargeback of a closed account's payment: nobody is left to owe or to lock. What the house
 * still holds for the player in `house:unclaimed` pays first; the rest is the house's loss.
 */
async function chargeBackClosed(
  ctx: AppContext,
  uow: UnitOfWork,
  payment: Payment,
  disputeId: string,
  amountCents: bigint,
): Promise<bigint> {
  const paid = await uow.tx
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.userId, payment.userId));
  const held = await unclaimedHeldFor(
    uow.tx,
    payment.userId,
    paid.map((row) => row.id),
  );
  const fromUnclaimed = smaller(held, amountCents);
  const transfer = await ctx.ledger.post(uow, {
    idempotencyKey: `chargeback:${disputeId}`,
    kind: 'chargeback',
    reference: { type: 'payment', id: payment.id },
    memo: `${disputedPaymentReason(formatCents(amountCents))} (closed account)`,
    entries: entriesOf([
      { account: HOUSE_UNCLAIMED, direction: 'debit', amountCents: fromUnclaimed },
      {
        account: HOUSE_ADJUSTMENTS,
        direction: 'debit',
        amountCents: amountCents - fromUnclaimed,
      },
      { account: EXTERNAL_CARD, direction: 'credit', amountCents },
    ]),
  });
  return transfer.transferId;
}

/**
 * Takes a disputed payment's money back (docs/chargebacks.md), in the caller's transaction: the
 * player's money is gathered in the wallet first (`gatherMoney`); the wallet pays what it can and
 * the rest becomes their debt; their money is locked. Accepted matches and credits under review
 * stay where they are, so an innocent opponent's match goes on.
 */
async function chargeBack(
  ctx: AppContext,
  uow: UnitOfWork,
  payment: Payment,
  disputeId: string,
  amountCents: bigint,
): Promise<bigint> {
  const reason = disputedPaymentReason(formatCents(amountCents));
  const player = await lockPlayerAndPlaces(uow, payment.userId);
  const { user } = player;
  if (user.deletedAt) return chargeBackClosed(ctx, uow, payment, disputeId, amountCents);
  await gatherMoney(ctx, uow, player, reason, PAYOUT_TOWARDS_CHARGEBACK);
  const { walletCents } = await lockWalletAndDebt(uow.tx, user.id);
  const fromWallet = smaller(walletCents, amountCents);
  const transfer = await ctx.ledger.post(uow, {
    idempotencyKey: `chargeback:${disputeId}`,
    kind: 'chargeback',
    reference: { type: 'payment', id: payment.id },
    memo: reason,
    entries: entriesOf([
      { account: userWallet(user.id), direction: 'debit', amountCents: fromWallet },
      {
        account: playerReceivable(user.id),
        direction: 'debit',
        amountCents: amountCents - fromWallet,
      },
      { account: EXTERNAL_CARD, direction: 'credit', amountCents },
    ]),
  });
  const now = ctx.clock();
  const locked = await lockMoney(uow.tx, user, reason, now);
  const lock = { reason, since: now.toISOString() };
  const owed = amountCents - fromWallet;
  await notify(uow, ctx.bus, {
    userId: user.id,
    kind: 'money_locked',
    title: 'A card payment of yours was disputed',
    body:
      `Your bank took back ${formatCents(amountCents)} you paid by card` +
      (owed > 0n ? `; your balance covered part of it and you owe ${formatCents(owed)}. ` : '. ') +
      (locked ? moneyLockMessage(lock) : ''),
    dedupeKey: `money-locked:${disputeId}`,
  });
  uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
  return transfer.transferId;
}

/**
 * Undoes a chargeback when the dispute is won: the money comes back from the card network, pays
 * the player's debt first and then reaches their wallet. For a closed account it goes back where
 * the chargeback took it from. The lock stays until an admin lifts it.
 */
async function reverseChargeBack(
  ctx: AppContext,
  uow: UnitOfWork,
  dispute: CardDispute,
): Promise<void> {
  const user = await lockUser(uow.tx, dispute.userId, 'no key update');
  const chargeback = await postingsOf(uow.tx, dispute.chargebackTransferId);
  // A chargeback of an account already closed took from the house: it goes back there.
  const fromHouse = chargeback.some(
    (posting) => posting.account === HOUSE_UNCLAIMED || posting.account === HOUSE_ADJUSTMENTS,
  );
  let entries: Entry[];
  if (fromHouse) {
    entries = chargeback.map((posting) => ({
      account: posting.account,
      direction: posting.amountCents < 0n ? 'credit' : 'debit',
      amountCents: posting.amountCents < 0n ? -posting.amountCents : posting.amountCents,
    }));
  } else {
    const { debtCents } = await lockWalletAndDebt(uow.tx, dispute.userId);
    const toDebt = smaller(debtCents, dispute.amountCents);
    entries = entriesOf([
      { account: EXTERNAL_CARD, direction: 'debit', amountCents: dispute.amountCents },
      { account: playerReceivable(dispute.userId), direction: 'credit', amountCents: toDebt },
      {
        // An account closed since the chargeback: its money is the house's to hold for them.
        account: user?.deletedAt ? HOUSE_UNCLAIMED : userWallet(dispute.userId),
        direction: 'credit',
        amountCents: dispute.amountCents - toDebt,
      },
    ]);
  }
  await ctx.ledger.post(uow, {
    idempotencyKey: `chargeback-reversal:${dispute.providerDisputeId}`,
    kind: 'chargeback_reversal',
    reference: { type: 'payment', id: dispute.paymentId },
    reversesTransferId: dispute.chargebackTransferId,
    entries,
  });
  if (fromHouse || user?.deletedAt) return;
  await notify(uow, ctx.bus, {
    userId: dispute.userId,
    kind: 'card_dispute_won',
    title: 'A card dispute was decided in your favour',
    body:
      `The dispute of your card payment of ${formatCents(dispute.amountCents)} was won: ` +
      'the money is back. Our team will lift the lock on your money.',
    dedupeKey: `dispute-won:${dispute.providerDisputeId}`,
  });
}

/**
 * Applies one report of a card dispute (docs/chargebacks.md) in the caller's transaction. Each
 * report carries the whole dispute, and each step happens once whatever the order and number of
 * reports: the first report of a dispute charges the payment back (`chargeback:{disputeId}`),
 * the first that says it was won reverses that (`chargeback-reversal:{disputeId}`), and a closed
 * dispute keeps its outcome. A second dispute of one payment changes nothing.
 */
export async function recordDispute(
  ctx: AppContext,
  uow: UnitOfWork,
  log: FastifyBaseLogger,
  provider: CardProviderName,
  report: CardDisputeReport,
): Promise<CardDispute | null> {
  const context = { disputeId: report.disputeId, paymentIntentId: report.paymentIntentId };
  if (report.paymentIntentId === null || report.currency !== 'usd') {
    log.warn(context, 'card dispute ignored: not a USD payment of ours');
    return null;
  }
  const payment = await lockPayment(uow.tx, provider, report.paymentIntentId);
  if (!payment || payment.method !== 'card') {
    log.warn(context, 'card dispute ignored: no such card payment');
    return null;
  }
  const now = ctx.clock();
  let dispute = await lockDispute(uow, provider, report.disputeId);
  if (!dispute && report.status.startsWith('warning_')) {
    // An inquiry: the bank asks, and no money moves until it becomes a chargeback, which Stripe
    // reports under the same dispute.
    log.warn({ ...context, status: report.status }, 'card inquiry noted: nothing taken back yet');
    return null;
  }
  if (!dispute) {
    const [other] = await uow.tx
      .select({ id: cardDisputes.providerDisputeId })
      .from(cardDisputes)
      .where(eq(cardDisputes.paymentId, payment.id))
      .limit(1);
    if (other) {
      log.warn({ ...context, firstDisputeId: other.id }, 'second dispute of a payment ignored');
      return null;
    }
    if (payment.creditedAmountCents === null) {
      if (payment.status !== 'pending') {
        log.error({ ...context, status: payment.status }, 'dispute of a payment never credited');
        return null;
      }
      // Stripe disputes only a paid charge: our record of it is a moment behind. Failing makes
      // Stripe deliver the event again.
      throw new AppError('SERVICE_UNAVAILABLE', 'The disputed payment is not credited yet.');
    }
    // What went back to the card already is not the player's to take back again.
    const amountCents = smaller(
      report.amountCents,
      payment.creditedAmountCents - (await refundedCentsOf(uow, payment.id, ['succeeded'])),
    );
    if (amountCents <= 0n) {
      log.warn(context, 'card dispute ignored: nothing to take back');
      return null;
    }
    const chargebackTransferId = await chargeBack(ctx, uow, payment, report.disputeId, amountCents);
    const [inserted] = await uow.tx
      .insert(cardDisputes)
      .values({
        provider,
        providerDisputeId: report.disputeId,
        paymentId: payment.id,
        userId: payment.userId,
        amountCents,
        reason: report.reason,
        providerStatus: report.status,
        chargebackTransferId,
        evidenceDueBy: report.evidenceDueBy,
        reportedAt: report.reportedAt,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!inserted) throw new Error(`dispute ${report.disputeId} was not stored`);
    dispute = inserted;
  }
  if (dispute.outcome !== 'open') return dispute;
  const outcome = outcomeOf(report);
  if (outcome === 'won') await reverseChargeBack(ctx, uow, dispute);
  // A report older than the one recorded keeps its outcome but not its status or deadline.
  const newer = dispute.reportedAt === null || report.reportedAt >= dispute.reportedAt;
  const [updated] = await uow.tx
    .update(cardDisputes)
    .set({
      ...(newer || outcome
        ? {
            providerStatus: report.status,
            evidenceDueBy: report.evidenceDueBy ?? dispute.evidenceDueBy,
            reportedAt: report.reportedAt,
          }
        : {}),
      updatedAt: now,
      ...(outcome ? { outcome, closedAt: now } : {}),
    })
    .where(eq(cardDisputes.id, dispute.id))
    .returning();
  return updated ?? dispute;
}
