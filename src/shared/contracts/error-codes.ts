/**
 * Stable error codes: clients and tests branch on these, never on message text. A module of its
 * own, without zod, so that the browser's API client can tell codes apart without loading zod.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'IDEMPOTENCY_CONFLICT',
  'INSUFFICIENT_BALANCE',
  'CHALLENGE_NOT_OPEN',
  'CHALLENGE_NOT_ACCEPTED',
  'OWN_CHALLENGE',
  'NOT_PARTICIPANT',
  'USERNAME_TAKEN',
  'INVALID_CREDENTIALS',
  'RATE_LIMITED',
  'CROSS_ORIGIN_REFUSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
  'PAYMENT_DECLINED',
  'PAYMENT_NOT_COMPLETED',
  'INVALID_SIGNATURE',
  'PAYOUT_NOT_PENDING',
  'CHALLENGE_NOT_DISPUTED',
  'VERIFICATION_NOT_PENDING',
  /**
   * The player's account is suspended (docs/fair-play.md): the message gives the reason and the
   * end.
   */
  'ACCOUNT_SUSPENDED',
  /** A mailed link (password reset, e-mail verification) that is unknown, used or expired. */
  'INVALID_TOKEN',
  /** A two-factor code that is wrong, already used, or a sign-in step that ran out. */
  'INVALID_CODE',
  /**
   * An admin route refused to an admin without two-factor sign-in
   * (docs/accounts.md#account-security).
   */
  'TWO_FACTOR_SETUP_REQUIRED',
  /**
   * Cash play refused where it is not allowed (docs/responsible-play.md): a declared or located
   * state, abroad.
   */
  'LOCATION_NOT_ALLOWED',
  /**
   * A payout before an admin has approved the player's ID (docs/responsible-play.md,
   * KYC_REQUIRED_FOR_PAYOUT).
   */
  'IDENTITY_NOT_VERIFIED',
  /** A payout over PAYOUT_DAILY_LIMIT in 24 hours; the message says what can still be withdrawn. */
  'PAYOUT_LIMIT_EXCEEDED',
  /**
   * A deposit over a limit the player set (docs/responsible-play.md); the message says how much is
   * left.
   */
  'DEPOSIT_LIMIT_EXCEEDED',
  /** Cash play refused during the player's own time-out or self-exclusion, naming its end. */
  'PLAY_PAUSED',
  /**
   * A player's own closing refused while money of theirs is in escrow, under review or on its
   * way out (docs/responsible-play.md); the message says where.
   */
  'MONEY_HELD',
  /**
   * A join refused because the tournament started, finished or was cancelled (docs/tournaments.md).
   */
  'TOURNAMENT_NOT_OPEN',
  /** A join refused because every place is taken; nothing was charged. */
  'TOURNAMENT_FULL',
  /**
   * Two accounts that share a device would meet in one match (docs/accounts.md#devices): an
   * acceptance, a direct challenge or a tournament entry refused.
   */
  'LINKED_ACCOUNTS',
  /**
   * A card deposit, stake, entry or payout refused while a disputed card payment locks the
   * player's money (docs/chargebacks.md); the message gives the reason.
   */
  'MONEY_LOCKED',
  /**
   * A payout that would take card money not yet cleared (docs/chargebacks.md): it may go back to
   * its card only; the message says how much.
   */
  'CARD_MONEY',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
