import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChallengeCounts } from '#shared/contracts/challenges.ts';
import { getJson } from '#client/lib/api-client.ts';
import { useAfterFirstPaint } from '#client/lib/first-paint.ts';

export const challengeCountsQueryKey = ['challenges', 'counts'] as const;

/** Loaded with the counts' first request, after the first paint (see loadChallengeSchema). */
async function loadChallengeCountsSchema() {
  return (await import('#shared/contracts/challenge-view.ts')).challengeCountsSchema;
}

/** The viewer's tab counts: available, active, completed, created and accepted. */
export function getChallengeCounts(signal?: AbortSignal): Promise<ChallengeCounts> {
  return getJson('/api/challenges/counts', loadChallengeCountsSchema, signal);
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
