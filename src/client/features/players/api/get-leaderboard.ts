import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Leaderboard, LeaderboardPeriodValue } from '#shared/contracts/players.ts';
import { getJson, loadedOnce } from '#client/lib/api-client.ts';

const loadLeaderboardSchema = loadedOnce(
  async () => (await import('#shared/contracts/players.ts')).leaderboardSchema,
);

export interface LeaderboardChoice {
  period: LeaderboardPeriodValue;
  /** A game's name, or '' for all games. */
  game: string;
}

export function getLeaderboard(
  choice: LeaderboardChoice,
  signal?: AbortSignal,
): Promise<Leaderboard> {
  const params = new URLSearchParams({ period: choice.period });
  if (choice.game.trim()) params.set('game', choice.game.trim());
  return getJson(`/api/leaderboard?${params.toString()}`, loadLeaderboardSchema, signal);
}

export function leaderboardQueryOptions(choice: LeaderboardChoice) {
  return queryOptions({
    queryKey: ['leaderboard', choice.period, choice.game.trim().toLowerCase()],
    queryFn: ({ signal }) => getLeaderboard(choice, signal),
  });
}

/** The last board stays on screen while another period or game loads. */
export function useLeaderboard(choice: LeaderboardChoice) {
  return useQuery({ ...leaderboardQueryOptions(choice), placeholderData: keepPreviousData });
}
