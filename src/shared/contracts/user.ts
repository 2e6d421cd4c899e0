import { PLAY_BREAK_KINDS } from '../play-breaks.ts';
import { z } from '../validation.ts';

// A module of its own, away from the registration and login rules: a page that names its
// signed-in user is checked against this contract before the browser first draws it, and that
// check should not have to build every other schema first.

/** A disputed card payment's lock on the player's money (docs/chargebacks.md); see `../money-lock.ts`. */
export const moneyLockSchema = z.object({ reason: z.string(), since: z.string() });

/** An admin's suspension of the player (docs/fair-play.md); see `../suspension.ts`. */
export const suspensionSchema = z.object({
  reason: z.string(),
  until: z.string().nullable(),
});

/**
 * A time-out or self-exclusion the player took (docs/responsible-play.md); see `../play-breaks.ts`.
 */
export const playBreakSchema = z.object({
  kind: z.enum(PLAY_BREAK_KINDS),
  until: z.string(),
});

/** The user object of docs/product.md#data as the API shows it: never the password hash. */
export const publicUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  /**
   * The product's balance (docs/product.md#data): what the player may use plus what reported
   * results hold for them.
   */
  balance: z.number(),
  /** The wallet: what staking and payouts may use (docs/fair-play.md). */
  available: z.number(),
  /** Winnings of reported results that the opponent may still contest. */
  underReview: z.number(),
  avatarUrl: z.string().nullable(),
  isOver18: z.boolean(),
  isAdmin: z.boolean(),
  phoneNumber: z.string().nullable(),
  email: z.string().nullable(),
  createdAt: z.string(),
  /** Set while an admin has suspended the account: no deposits, new challenges or acceptances. */
  suspension: suspensionSchema.nullable(),
  /**
   * Whether `email` was proven by a mailed link (docs/accounts.md#account-security); only then does
   * it get mail.
   */
  emailVerified: z.boolean(),
  /**
   * Whether sign-in asks for an authenticator code after the password
   * (docs/accounts.md#account-security).
   */
  twoFactorEnabled: z.boolean(),
  /**
   * The US state the player says they are in (docs/responsible-play.md), by its code; null if never
   * given.
   */
  state: z.string().nullable(),
  /** Set during the player's own time-out or self-exclusion: no deposits, creating, accepting. */
  playBreak: playBreakSchema.nullable(),
  /**
   * What the player owes after a chargeback, in dollars; 0 when nothing (docs/chargebacks.md).
   */
  debt: z.number(),
  /** Set while a disputed card payment locks the player's money; null otherwise. */
  moneyLock: moneyLockSchema.nullable(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;
