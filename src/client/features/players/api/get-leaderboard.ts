import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Leaderboard } from '#shared/contracts/players.ts';
import {
  leaderboardQueryKey,
  leaderboardQueryOf,
  type LeaderboardChoice,
} from '#shared/page-data.ts';
import { getJson, loadedOnce } from '#client/lib/api-client.ts';

export const loadLeaderboardSchema = loadedOnce(
  async () => (await import('#shared/contracts/players.ts')).leaderboardSchema,
);

export function getLeaderboard(
  choice: LeaderboardChoice,
  signal?: AbortSignal,
): Promise<Leaderboard> {
  const params = new URLSearchParams(leaderboardQueryOf(choice));
  return getJson(`/api/leaderboard?${params.toString()}`, loadLeaderboardSchema, signal);
}

export function leaderboardQueryOptions(choice: LeaderboardChoice) {
  return queryOptions({
    queryKey: leaderboardQueryKey(choice),
    queryFn: ({ signal }) => getLeaderboard(choice, signal),
  });
}

/** The last board stays on screen while another period or game loads. */
export function useLeaderboard(choice: LeaderboardChoice) {
  return useQuery({ ...leaderboardQueryOptions(choice), placeholderData: keepPreviousData });
}
