import { z } from '../validation.ts';

// A challenge and the counts as the API shows them, a module of their own: the lobby's lists
// check their answers against these just after its first paint, and should not have to build
// every request body's schema (and the registration rules those borrow) first.

export const CHALLENGE_STATUS_VALUES = [
  'open',
  'accepted',
  'completed',
  'disputed',
  'cancelled',
] as const;
export type ChallengeStatusValue = (typeof CHALLENGE_STATUS_VALUES)[number];

const count = z.number().int().nonnegative();

/**
 * A player's record, derived from their challenges (docs/fair-play.md);
 * `features/challenges/records.ts` on the server says exactly what counts.
 */
export const playerRecordSchema = z.object({
  /** Challenges with a result that stands (completed), reported or decided by an admin. */
  played: count,
  won: count,
  lost: count,
  /** Lost on level scores: a tie goes to the acceptor (docs/product.md#states). */
  tiesLost: count,
  /** Results they contested, or opponents they reported as absent. */
  disputesOpened: count,
  /** Disputes an admin decided for their opponent (a no-show against them counts below). */
  disputesLost: count,
  /** Claims that they never showed which an admin upheld. */
  noShows: count,
  /** Accepted matches that ended without a result: called off, expired, or refunded. */
  cancelled: count,
});
export type PlayerRecord = z.infer<typeof playerRecordSchema>;

const embeddedUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  /** Only for admins (docs/product.md#screens View Details). */
  email: z.string().nullable().optional(),
  balance: z.number().optional(),
  /** Only for the two players and admins, so they can reach each other. */
  phoneNumber: z.string().nullable().optional(),
  record: playerRecordSchema,
});

export const challengeSchema = z.object({
  id: z.number().int(),
  creatorId: z.number().int(),
  acceptorId: z.number().int().nullable(),
  winnerId: z.number().int().nullable(),
  amount: z.number(),
  game: z.string(),
  gamerTag: z.string(),
  /** The creator's phone: shown to the two players and admins; null for everyone else. */
  phoneNumber: z.string().nullable(),
  console: z.string(),
  mode: z.string().nullable(),
  platform: z.string().nullable(),
  /** Both stakes together: what the winner plays for before the fee. */
  prize: z.number(),
  deduction: z.number().nullable(),
  status: z.enum(CHALLENGE_STATUS_VALUES),
  creatorScore: z.number().int().nullable(),
  acceptorScore: z.number().int().nullable(),
  winnerScreenshot: z.string().nullable(),
  scoreData: z
    .object({
      creatorScore: z.number().int(),
      acceptorScore: z.number().int(),
      screenshot: z.string(),
    })
    .nullable(),
  notes: z.string().nullable(),
  disputeReason: z.string().nullable(),
  submittedBy: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  acceptedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Until when the other player may dispute a completed result; null when not applicable. */
  disputableUntil: z.string().nullable(),
  /**
   * While a reported result's credit is held for the opponent (docs/fair-play.md): when the review
   * ends and the result stands. Null otherwise.
   */
  reviewEndsAt: z.string().nullable(),
  /** When the held credit reached the winner's wallet. */
  releasedAt: z.string().nullable(),
  /** The players of an accepted match who asked to call it off. */
  cancelRequestedBy: z.array(z.number().int()),
  /** The player who reported that the opponent never showed. */
  noShowClaimedBy: z.number().int().nullable(),
  /** Why a cancelled challenge ended: creator, mutual, expired, refunded or suspended. */
  cancelCause: z.string().nullable(),
  creator: embeddedUserSchema,
  acceptor: embeddedUserSchema.nullable(),
  /**
   * A direct challenge's invited player (docs/challenges.md#finding-an-opponent); null for a public
   * challenge.
   */
  opponent: z.object({ id: z.number().int(), username: z.string() }).nullable(),
});
export type ChallengeView = z.infer<typeof challengeSchema>;

export const challengeCountsSchema = z.object({
  available: z.number().int(),
  active: z.number().int(),
  /** Finished matches, including those under dispute. */
  completed: z.number().int(),
  created: z.number().int(),
  accepted: z.number().int(),
});
export type ChallengeCounts = z.infer<typeof challengeCountsSchema>;
