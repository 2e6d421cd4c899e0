import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChallengeCounts } from '#shared/contracts/challenges.ts';
import { getJson } from '#client/lib/api-client.ts';
import { useAfterFirstPaint } from '#client/lib/first-paint.ts';
import {
  hasLobbyFilters,
  NO_FILTERS,
  writeLobbyFilters,
  type LobbyFilters,
} from '../lib/lobby-filters.ts';

export const challengeCountsQueryKey = ['challenges', 'counts'] as const;

/** Loaded with the counts' first request, after the first paint (see loadChallengeSchema). */
async function loadChallengeCountsSchema() {
  return (await import('#shared/contracts/challenge-view.ts')).challengeCountsSchema;
}

/**
 * The viewer's tab counts: available, active, completed, created and accepted; with the lobby's
 * filters, of what the filtered tabs show (the sort changes no count).
 */
export function getChallengeCounts(
  lobby: LobbyFilters = NO_FILTERS,
  signal?: AbortSignal,
): Promise<ChallengeCounts> {
  const query = writeLobbyFilters({ ...lobby, sort: 'newest' });
  return getJson(
    `/api/challenges/counts${query ? `?${query}` : ''}`,
    loadChallengeCountsSchema,
    signal,
  );
}

export function challengeCountsQueryOptions(lobby: LobbyFilters = NO_FILTERS) {
  const counted = { ...lobby, sort: 'newest' as const };
  return queryOptions({
    // The unfiltered counts keep the key they always had: the profile reads them too.
    queryKey: hasLobbyFilters(counted)
      ? [...challengeCountsQueryKey, counted]
      : challengeCountsQueryKey,
    queryFn: ({ signal }) => getChallengeCounts(counted, signal),
  });
}

/** Asked for once the first frame is drawn: the counts are not what a page shows first. */
export function useChallengeCounts(lobby?: LobbyFilters) {
  return useQuery({ ...challengeCountsQueryOptions(lobby), enabled: useAfterFirstPaint() });
}
