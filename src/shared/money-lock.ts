/**
 * A player's money lock as the API shows it (docs/chargebacks.md): set when a card payment of
 * theirs is disputed. A module without zod, like `suspension.ts`, so that the banner every page
 * shows can word it without bringing zod into the first page.
 */
export interface MoneyLock {
  /** Why, in words the player is shown: "a card payment of $25.00 was disputed". */
  reason: string;
  /** ISO 8601. */
  since: string;
}

/** What a player under a money lock is told, by the server's refusals and by the app's banner. */
export function moneyLockMessage(lock: MoneyLock): string {
  return (
    `Your account's money is locked because ${lock.reason}: no card deposits, challenges, ` +
    'tournament entries or payouts until our team lifts it. You can still sign in, and repay ' +
    'by a crypto deposit.'
  );
}

/** The lock's reason for a disputed card payment of `amount` ("$25.00"). */
export const disputedPaymentReason = (amount: string): string =>
  `a card payment of ${amount} was disputed`;

/** The lock's reason for a card payment of `amount` that the card network warned was fraudulent. */
export const fraudWarningReason = (amount: string): string =>
  `the card network reported a card payment of ${amount} as possibly unauthorised`;
