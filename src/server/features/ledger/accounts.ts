/**
 * Ledger account keys (docs/money-and-ledger.md). Every key names what the money is for; the kind
 * decides whether the account may go below zero. Only the house's adjustment account and the
 * outside world (`external:*`) may: money that enters from outside leaves those accounts negative.
 */
export type AccountKind =
  | 'user'
  | 'escrow'
  | 'review'
  | 'payout_hold'
  | 'card_refund_hold'
  | 'receivable'
  | 'house'
  | 'external';

export interface AccountDescription {
  kind: AccountKind;
  allowNegative: boolean;
  userId: number | null;
}

export const HOUSE_FEES = 'house:fees';
export const HOUSE_ADJUSTMENTS = 'house:adjustments';
export const HOUSE_UNCLAIMED = 'house:unclaimed';
export const EXTERNAL_CARD = 'external:card';
export const EXTERNAL_CRYPTO = 'external:crypto';

export const userWallet = (userId: number): string => `user:${userId}`;
export const challengeEscrow = (challengeId: number): string => `escrow:challenge:${challengeId}`;
/**
 * A tournament's entry fees, from the joins until the payout or the refunds (docs/tournaments.md).
 */
export const tournamentEscrow = (tournamentId: number): string =>
  `escrow:tournament:${tournamentId}`;
/**
 * A reported result's credit while the opponent may still contest it (docs/fair-play.md). The
 * account belongs to the winner (`user_id`), set when the result's settlement opens it.
 */
export const challengeReview = (challengeId: number): string => `review:challenge:${challengeId}`;
export const payoutHold = (payoutId: number): string => `payout:hold:${payoutId}`;
/** A card refund's amount while the provider makes it (docs/chargebacks.md). */
export const cardRefundHold = (refundId: number): string => `card-refund:hold:${refundId}`;
/**
 * What a player owes the house (docs/chargebacks.md): a chargeback their wallet could not cover.
 * The house holds it, so its balance is the debt below zero, and never above it (a CHECK).
 */
export const playerReceivable = (userId: number): string => `receivable:user:${userId}`;

const FIXED_ACCOUNTS: Record<string, AccountDescription> = {
  [HOUSE_FEES]: { kind: 'house', allowNegative: false, userId: null },
  [HOUSE_UNCLAIMED]: { kind: 'house', allowNegative: false, userId: null },
  [HOUSE_ADJUSTMENTS]: { kind: 'house', allowNegative: true, userId: null },
  [EXTERNAL_CARD]: { kind: 'external', allowNegative: true, userId: null },
  [EXTERNAL_CRYPTO]: { kind: 'external', allowNegative: true, userId: null },
};

/** What a key means, or null for a key that is not a ledger account. */
export function describeAccount(key: string): AccountDescription | null {
  const fixed = FIXED_ACCOUNTS[key];
  if (fixed) return fixed;
  const wallet = /^user:([1-9]\d*)$/.exec(key);
  if (wallet?.[1]) return { kind: 'user', allowNegative: false, userId: Number(wallet[1]) };
  if (/^escrow:(challenge|tournament):[1-9]\d*$/.test(key))
    return { kind: 'escrow', allowNegative: false, userId: null };
  // Its owner is recorded when the settlement opens it; later transfers leave it as it is.
  if (/^review:challenge:[1-9]\d*$/.test(key))
    return { kind: 'review', allowNegative: false, userId: null };
  const receivable = /^receivable:user:([1-9]\d*)$/.exec(key);
  if (receivable?.[1])
    return { kind: 'receivable', allowNegative: true, userId: Number(receivable[1]) };
  if (/^payout:hold:[1-9]\d*$/.test(key))
    return { kind: 'payout_hold', allowNegative: false, userId: null };
  if (/^card-refund:hold:[1-9]\d*$/.test(key))
    return { kind: 'card_refund_hold', allowNegative: false, userId: null };
  return null;
}
