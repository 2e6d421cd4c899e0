import { GAME_MAX } from './lobby.ts';

/**
 * The data a screen shows first, given in the page the server sends for its address (decision
 * 8), so that its first render need not wait for the request. The server and the client share
 * what is here: the element, the names of the queries, their cache keys, and how an address
 * becomes a query, so that what the server puts under a key is what the client would ask for.
 * No zod here: the entry chunk imports this module.
 */
export const PAGE_DATA_ELEMENT_ID = 'page-data';

/** The queries a page may carry the answer of, each the answer of one API route. */
export const PAGE_QUERIES = ['player', 'leaderboard', 'tournaments'] as const;
export type PageQueryName = (typeof PAGE_QUERIES)[number];

/** One answer in the page: the query it answers, its cache key, and the API's JSON. */
export interface PageQuery {
  query: PageQueryName;
  key: readonly unknown[];
  data: unknown;
}

/** GET /api/players/:username, whatever the case of the name. */
export const playerQueryKey = (username: string) => ['players', username.toLowerCase()] as const;

/** The leaderboards' periods (GET /api/leaderboard's `period`). */
export const LEADERBOARD_PERIOD_VALUES = ['week', 'month', 'all'] as const;
export type LeaderboardPeriodValue = (typeof LEADERBOARD_PERIOD_VALUES)[number];

export const isLeaderboardPeriod = (value: string | null): value is LeaderboardPeriodValue =>
  (LEADERBOARD_PERIOD_VALUES as readonly (string | null)[]).includes(value);

export interface LeaderboardChoice {
  period: LeaderboardPeriodValue;
  /** A game's name, or '' for all games. */
  game: string;
}

/** The board an address asks for (`?period=month&game=Tekken 8`): this week, all games, unsaid. */
export function leaderboardChoiceOf(search: string): LeaderboardChoice {
  const params = new URLSearchParams(search);
  const period = params.get('period');
  return {
    period: isLeaderboardPeriod(period) ? period : 'week',
    game: (params.get('game') ?? '').trim().slice(0, GAME_MAX),
  };
}

/** GET /api/leaderboard?period=&game= */
export const leaderboardQueryKey = (choice: LeaderboardChoice) =>
  ['leaderboard', choice.period, choice.game.trim().toLowerCase()] as const;

/** The query string GET /api/leaderboard is asked with for `choice`. */
export function leaderboardQueryOf(choice: LeaderboardChoice): { period: string; game?: string } {
  const game = choice.game.trim();
  return game ? { period: choice.period, game } : { period: choice.period };
}

/** The prefix of every tournament key: one TOURNAMENT_UPDATED reads them all again. */
export const tournamentsQueryKey = ['tournaments'] as const;

/** GET /api/tournaments */
export const tournamentListQueryKey = [...tournamentsQueryKey, 'list'] as const;
