import { playerRecordSchema } from './challenge-view.ts';
import { GAME_MAX } from './challenges.ts';
import { LEADERBOARD_PERIOD_VALUES } from '../page-data.ts';
import { z } from '../validation.ts';

/**
 * Finding an opponent (docs/challenges.md#finding-an-opponent): a player's public page, the
 * leaderboards, and the games the lobby's search suggests. Nothing here carries contact data or a
 * balance.
 */

export const PLAYER_RESULTS_MAX = 20;
export const PLAYER_GAMES_MAX = 5;
export const LEADERBOARD_SIZE = 50;
export const GAME_SUGGESTIONS_MAX = 8;

export { LEADERBOARD_PERIOD_VALUES, type LeaderboardPeriodValue } from '../page-data.ts';

export const PLAYER_MESSAGES = {
  notFound: 'Player not found',
  period: `Period must be one of ${LEADERBOARD_PERIOD_VALUES.join(', ')}`,
  gameMax: `Game must be at most ${GAME_MAX} characters`,
} as const;

/** GET /api/players/:username; the name is looked up whatever its case. */
export const playerParamsSchema = z.object({
  username: z.string().min(1, PLAYER_MESSAGES.notFound).max(64, PLAYER_MESSAGES.notFound),
});

/** One finished match as its player's page lists it. */
export const playerResultSchema = z.object({
  challengeId: z.number().int(),
  game: z.string(),
  console: z.string(),
  /** Each player's stake. */
  amount: z.number(),
  won: z.boolean(),
  /** The player's own score, then the opponent's. */
  score: z.number().int(),
  opponentScore: z.number().int(),
  /** Null when the opponent's account was closed. */
  opponent: z.string().nullable(),
  completedAt: z.string(),
});
export type PlayerResult = z.infer<typeof playerResultSchema>;

export const playerProfileSchema = z.object({
  username: z.string(),
  joinedAt: z.string(),
  record: playerRecordSchema,
  /** The games they played most, with the matches played and won in each. */
  games: z.array(z.object({ game: z.string(), played: z.number().int(), wins: z.number().int() })),
  /** Their last results, newest first. */
  results: z.array(playerResultSchema),
});
export type PlayerProfile = z.infer<typeof playerProfileSchema>;

const optionalGame = z
  .string()
  .trim()
  .max(GAME_MAX, PLAYER_MESSAGES.gameMax)
  .transform((value) => value || undefined)
  .optional();

/** GET /api/leaderboard?period=week|month|all&game= (this week by default; all games). */
export const leaderboardQuerySchema = z.object({
  period: z.enum(LEADERBOARD_PERIOD_VALUES, { error: PLAYER_MESSAGES.period }).default('week'),
  game: optionalGame,
});
export type LeaderboardQuery = z.input<typeof leaderboardQuerySchema>;

export const leaderboardRowSchema = z.object({
  rank: z.number().int(),
  username: z.string(),
  played: z.number().int(),
  wins: z.number().int(),
  /** Prizes credited minus the stakes of the matches played, in dollars. */
  net: z.number(),
});
export type LeaderboardRow = z.infer<typeof leaderboardRowSchema>;

export const leaderboardSchema = z.object({
  period: z.enum(LEADERBOARD_PERIOD_VALUES),
  /** The game as players write it, or null for all games. */
  game: z.string().nullable(),
  /** The first day of the week (Monday) or month counted, in UTC; null for all time. */
  since: z.string().nullable(),
  byNet: z.array(leaderboardRowSchema),
  byWins: z.array(leaderboardRowSchema),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** GET /api/games?q=: the games named on challenges, most named first. */
export const gameSuggestionsQuerySchema = z.object({ q: optionalGame });

export const gameSuggestionsSchema = z.array(
  z.object({ name: z.string(), challenges: z.number().int() }),
);
export type GameSuggestion = z.infer<typeof gameSuggestionsSchema>[number];
