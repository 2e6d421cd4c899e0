import { sql } from 'drizzle-orm';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { getUserBalanceCents, lockWalletAndDebt, stakedSince } from '../ledger/index.ts';
import { cardCreditsSince } from '../payments/index.ts';

/**
 * How far back card deposits are looked at: about as long as a cardholder's bank takes a dispute.
 * Older card money is withdrawable like any other.
 */
export const CARD_LOOKBACK_DAYS = 120;

export interface PayoutLimits {
  /** The wallet. */
  availableCents: bigint;
  /** What may leave as a payout. */
  withdrawableCents: bigint;
  /** Card money not yet cleared: it may go back to its card only. */
  refundableToCardCents: bigint;
  /** The card payments not yet cleared, newest first, with what of each is still the player's. */
  unclearedPayments: Array<{ paymentId: number; amountCents: bigint }>;
}

/** The first key of the advisory lock that serialises one player's payouts and card refunds. */
const WITHDRAWAL_LOCK_CLASS = 0x5041;

/**
 * Serialises, until the transaction ends, the requests that take money out of one player's wallet
 * (payouts and card refunds), so that each judges the limits the one before it left.
 */
export async function lockWithdrawalsOf(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${WITHDRAWAL_LOCK_CLASS}, ${userId})`);
}

export const cardMoneyMessage = (refundableToCardCents: bigint): string =>
  `${formatCents(refundableToCardCents)} of your balance came by card and can only be refunded ` +
  'to that card for now.';

/**
 * What of the player's wallet may leave as a payout (docs/chargebacks.md). A card deposit clears
 * once it is `CARD_CLEARING_HOURS` old and played through (the player staked at least its amount
 * in all since it was credited); until then its amount, as far as the wallet holds it, is
 * refundable to the card and not withdrawable. Winnings, crypto deposits and admins' credits are
 * withdrawable as before.
 */
export async function payoutLimitsOf(
  ctx: AppContext,
  db: Executor,
  userId: number,
  { lockWallet = false }: { lockWallet?: boolean } = {},
): Promise<PayoutLimits> {
  const now = ctx.clock();
  const availableCents = lockWallet
    ? (await lockWalletAndDebt(db, userId)).walletCents
    : await getUserBalanceCents(db, userId);
  const credits = await cardCreditsSince(
    db,
    userId,
    new Date(now.getTime() - CARD_LOOKBACK_DAYS * 86_400_000),
  );
  const clearedBefore = now.getTime() - ctx.env.CARD_CLEARING_HOURS * 3_600_000;
  let unclearedCents = 0n;
  const unclearedPayments: PayoutLimits['unclearedPayments'] = [];
  for (const credit of credits) {
    const played = await stakedSince(db, userId, credit.creditedAt);
    const cleared =
      credit.creditedAt.getTime() <= clearedBefore && played.stakedCents >= credit.amountCents;
    if (cleared) continue;
    unclearedCents += credit.amountCents;
    unclearedPayments.push({ paymentId: credit.paymentId, amountCents: credit.amountCents });
  }
  const refundableToCardCents = unclearedCents < availableCents ? unclearedCents : availableCents;
  return {
    availableCents,
    withdrawableCents: availableCents - refundableToCardCents,
    refundableToCardCents,
    unclearedPayments,
  };
}

/**
 * Refuses a payout that would take card money not yet cleared (400 `CARD_MONEY`). One over the
 * wallet itself is left to the ledger, which answers the SPEC's "Insufficient balance".
 */
export async function requireWithdrawable(
  ctx: AppContext,
  db: Executor,
  userId: number,
  amountCents: bigint,
): Promise<void> {
  const limits = await payoutLimitsOf(ctx, db, userId);
  if (amountCents > limits.availableCents || amountCents <= limits.withdrawableCents) return;
  const message = cardMoneyMessage(limits.refundableToCardCents);
  throw new AppError('CARD_MONEY', message, { fields: { amount: message } });
}
