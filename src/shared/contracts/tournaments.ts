import { groupThousands } from '../money.ts';
import { evidenceSchema } from './challenges.ts';
import { CONSOLES, GAME_MAX } from '../lobby.ts';
import { z } from '../validation.ts';
import { idFromText, idParamsSchema } from './ids.ts';

/** docs/tournaments.md: single elimination, for this many players at most. */
export const TOURNAMENT_SIZES = [4, 8, 16, 32, 64] as const;
export const TOURNAMENT_ENTRY_FEE_MIN = 1;
export const TOURNAMENT_ENTRY_FEE_MAX = 10_000;
/** docs/tournaments.md: 70% of the pool after the fee to the winner, 30% to the runner-up. */
export const DEFAULT_PRIZE_SPLIT = [70, 30] as const;
/** How far ahead a tournament may be scheduled. */
export const TOURNAMENT_START_MAX_DAYS = 90;

export const TOURNAMENT_STATUS_VALUES = ['open', 'live', 'finished', 'cancelled'] as const;
export type TournamentStatusValue = (typeof TOURNAMENT_STATUS_VALUES)[number];
export const MATCH_STATUS_VALUES = ['waiting', 'playing', 'reported', 'disputed', 'done'] as const;

export const TOURNAMENT_MESSAGES = {
  notFound: 'Tournament not found',
  matchNotFound: 'Match not found',
  gameRequired: 'Game is required',
  gameMax: `Game must be at most ${GAME_MAX} characters`,
  console: 'Please choose a console',
  entryFeeWhole: 'Entry fee must be a whole number of dollars',
  entryFeeMin: `Entry fee must be at least $${TOURNAMENT_ENTRY_FEE_MIN}`,
  entryFeeMax: `Entry fee must be at most $${groupThousands(String(TOURNAMENT_ENTRY_FEE_MAX))}`,
  size: `Size must be one of ${TOURNAMENT_SIZES.join(', ')}`,
  startsAt: 'Start time must be a date and time, like 2026-12-01T18:00:00Z',
  startsAtPast: 'Start time must be in the future',
  startsAtFar: `Start time must be within ${TOURNAMENT_START_MAX_DAYS} days`,
  splitPercent: 'Each prize share must be a whole percentage from 1 to 100',
  splitSum: 'Prize shares must add up to 100',
  splitPlaces: 'There cannot be more paid places than players',
  notOpen: 'This tournament is no longer taking entries',
  full: 'This tournament is full',
  alreadyJoined: 'You have already joined this tournament',
  notJoined: 'You have not joined this tournament',
  leaveStarted: 'You can leave only before the tournament starts',
  cannotCancel: 'Only a tournament that has not finished can be cancelled',
  notPlayer: 'Only the two players of this match can do that',
  matchNotReady: 'This match is not being played yet',
  alreadyReported: 'A result has already been reported for this match',
  nothingToConfirm: 'There is no reported result to confirm',
  confirmOwnReport: 'Your opponent must confirm the result you reported',
  confirmDisputed: 'This result is disputed: an admin will decide it',
  disputeNotAllowed: 'This result can no longer be disputed',
  disputeOwnReport: 'The other player must dispute a result',
  noShowTooEarly: 'You can report a no-show once the waiting time after the match began has passed',
  notDisputed: 'This match is not disputed',
  winnerNotPlayer: 'The winner must be one of the two players of this match',
} as const;

export const tournamentIdParamsSchema = idParamsSchema(TOURNAMENT_MESSAGES.notFound);
export const tournamentMatchParamsSchema = z.object({
  id: idFromText(TOURNAMENT_MESSAGES.notFound),
  matchId: idFromText(TOURNAMENT_MESSAGES.matchNotFound),
});

export const createTournamentBodySchema = z
  .strictObject({
    game: z
      .string({ error: TOURNAMENT_MESSAGES.gameRequired })
      .trim()
      .min(1, TOURNAMENT_MESSAGES.gameRequired)
      .max(GAME_MAX, TOURNAMENT_MESSAGES.gameMax),
    console: z.enum(CONSOLES, { error: TOURNAMENT_MESSAGES.console }),
    entryFee: z
      .number({ error: TOURNAMENT_MESSAGES.entryFeeWhole })
      .int(TOURNAMENT_MESSAGES.entryFeeWhole)
      .min(TOURNAMENT_ENTRY_FEE_MIN, TOURNAMENT_MESSAGES.entryFeeMin)
      .max(TOURNAMENT_ENTRY_FEE_MAX, TOURNAMENT_MESSAGES.entryFeeMax),
    size: z
      .number({ error: TOURNAMENT_MESSAGES.size })
      .refine(
        (value) => (TOURNAMENT_SIZES as readonly number[]).includes(value),
        TOURNAMENT_MESSAGES.size,
      ),
    startsAt: z.iso.datetime({ offset: true, error: TOURNAMENT_MESSAGES.startsAt }),
    prizeSplit: z
      .array(
        z
          .number({ error: TOURNAMENT_MESSAGES.splitPercent })
          .int(TOURNAMENT_MESSAGES.splitPercent)
          .min(1, TOURNAMENT_MESSAGES.splitPercent)
          .max(100, TOURNAMENT_MESSAGES.splitPercent),
        { error: TOURNAMENT_MESSAGES.splitSum },
      )
      .min(1, TOURNAMENT_MESSAGES.splitSum)
      .max(64, TOURNAMENT_MESSAGES.splitPlaces)
      .refine((split) => split.reduce((sum, share) => sum + share, 0) === 100, {
        message: TOURNAMENT_MESSAGES.splitSum,
      })
      .optional(),
    allowByes: z.boolean({ error: 'allowByes must be true or false' }).optional(),
  })
  .refine((body) => (body.prizeSplit?.length ?? DEFAULT_PRIZE_SPLIT.length) <= body.size, {
    message: TOURNAMENT_MESSAGES.splitPlaces,
    path: ['prizeSplit'],
  });
export type CreateTournamentBody = z.input<typeof createTournamentBodySchema>;

export const resolveTournamentMatchBodySchema = z.strictObject({
  winnerId: idFromText(TOURNAMENT_MESSAGES.winnerNotPlayer),
});

const playerRefSchema = z.object({ id: z.number().int(), username: z.string() });

export const tournamentSummarySchema = z.object({
  id: z.number().int(),
  game: z.string(),
  console: z.string(),
  entryFee: z.number(),
  size: z.number().int(),
  startsAt: z.string(),
  status: z.enum(TOURNAMENT_STATUS_VALUES),
  allowByes: z.boolean(),
  prizeSplit: z.array(z.number().int()),
  entrants: z.number().int(),
  placesLeft: z.number().int(),
  /** The entry fees so far minus the 5% fee: what the places share if it started now. */
  prizePool: z.number(),
  /** Whether the viewer holds an entry. */
  joined: z.boolean(),
});
export type TournamentSummary = z.infer<typeof tournamentSummarySchema>;

export const tournamentMatchSchema = z.object({
  id: z.number().int(),
  round: z.number().int(),
  slot: z.number().int(),
  playerA: playerRefSchema.nullable(),
  playerB: playerRefSchema.nullable(),
  status: z.enum(MATCH_STATUS_VALUES),
  winnerId: z.number().int().nullable(),
  scoreA: z.number().int().nullable(),
  scoreB: z.number().int().nullable(),
  reportedBy: z.number().int().nullable(),
  reviewEndsAt: z.string().nullable(),
  /**
   * When the worker decides the match if nobody reports it (`TOURNAMENT_MATCH_MINUTES` after it
   * began; a no-show claim no sooner than `NO_SHOW_MINUTES` after it); null when it does not.
   */
  deadlineAt: z.string().nullable(),
  disputeReason: z.string().nullable(),
  standCause: z.string().nullable(),
});
export type TournamentMatchView = z.infer<typeof tournamentMatchSchema>;

export const tournamentDetailSchema = tournamentSummarySchema.extend({
  seed: z.string().nullable(),
  winnerId: z.number().int().nullable(),
  rounds: z.number().int(),
  entries: z.array(
    playerRefSchema.extend({ place: z.number().int().nullable(), prize: z.number().nullable() }),
  ),
  matches: z.array(tournamentMatchSchema),
});
export type TournamentDetail = z.infer<typeof tournamentDetailSchema>;

export const tournamentListSchema = z.array(tournamentSummarySchema);

/** The most disputed tournament matches the admins' queue shows at once, oldest first. */
export const TOURNAMENT_DISPUTES_MAX = 200;

/**
 * `GET /api/admin/tournament-disputes`: a disputed match of a live tournament, with what the
 * admin needs to decide it through `POST /api/admin/tournaments/{id}/matches/{matchId}/resolve`.
 * A list of its own beside `GET /api/admin/disputes`, whose challenges keep their shape.
 */
export const adminTournamentDisputeSchema = z.object({
  tournamentId: z.number().int(),
  game: z.string(),
  console: z.string(),
  rounds: z.number().int(),
  matchId: z.number().int(),
  round: z.number().int(),
  playerA: playerRefSchema,
  playerB: playerRefSchema,
  scoreA: z.number().int().nullable(),
  scoreB: z.number().int().nullable(),
  reportedBy: z.number().int().nullable(),
  reportedAt: z.string().nullable(),
  noShowClaimedBy: z.number().int().nullable(),
  disputeReason: z.string().nullable(),
  screenshotUrl: z.string().nullable(),
  notes: z.string().nullable(),
  evidence: z.array(evidenceSchema),
});
export type AdminTournamentDispute = z.infer<typeof adminTournamentDisputeSchema>;
