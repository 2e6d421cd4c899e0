/**
 * The lobby's choices (docs/challenges.md#finding-an-opponent) without zod: the home page reads
 * them before its first frame, and must not build every challenge schema to do so (decision 8).
 * `contracts/challenges.ts` re-exports them beside the schemas that use them.
 */

export const GAME_MAX = 80;

export const CONSOLES = [
  'Xbox',
  'PlayStation',
  'PC',
  'Nintendo Switch',
  'Mobile',
  'Other',
] as const;

/** The lobby's orders: newest first unless a player asks otherwise. */
export const CHALLENGE_SORTS = ['newest', 'amount_desc', 'amount_asc'] as const;
export type ChallengeSort = (typeof CHALLENGE_SORTS)[number];

export const FILTER_MESSAGES = {
  gameMax: `Game must be at most ${GAME_MAX} characters`,
  console: `Console must be one of ${CONSOLES.join(', ')}`,
  minAmount: 'Minimum amount must be a dollar amount such as 5 or 7.50',
  maxAmount: 'Maximum amount must be a dollar amount such as 50 or 72.50',
  range: 'Maximum amount must be at least the minimum amount',
  sort: `Sort must be one of ${CHALLENGE_SORTS.join(', ')}`,
} as const;

/** Deleted accounts are renamed `deleted_user_<id>` so that their names are free again. */
export const DELETED_USERNAME_PREFIX = 'deleted_user_';
