import { queryOptions, useQuery } from '@tanstack/react-query';
import { challengeCountsSchema, type ChallengeCounts } from '#shared/contracts/challenges.ts';
import { getJson } from '#client/lib/api-client.ts';
import { useAfterFirstPaint } from '#client/lib/first-paint.ts';

export const challengeCountsQueryKey = ['challenges', 'counts'] as const;

/** The viewer's tab counts: available, active, completed, created and accepted. */
export function getChallengeCounts(signal?: AbortSignal): Promise<ChallengeCounts> {
  return getJson('/api/challenges/counts', challengeCountsSchema, signal);
}

export function challengeCountsQueryOptions() {
  return queryOptions({
    queryKey: challengeCountsQueryKey,
    queryFn: ({ signal }) => getChallengeCounts(signal),
  });
}

/** Asked for once the first frame is drawn: the counts are not what a page shows first. */
export function useChallengeCounts() {
  return useQuery({ ...challengeCountsQueryOptions(), enabled: useAfterFirstPaint() });
}
