import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminChallengeListSchema } from '#shared/contracts/admin.ts';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { getJson } from '#client/lib/api-client.ts';

export const ADMIN_CHALLENGES_PAGE_SIZE = 50;

export const adminChallengesQueryKey = ['admin', 'challenges'] as const;

/** One page of completed challenges as an admin sees them (emails, balances), newest first. */
export function getAdminChallenges(
  before: number | undefined,
  signal?: AbortSignal,
): Promise<ChallengeView[]> {
  const params = new URLSearchParams({ limit: String(ADMIN_CHALLENGES_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/admin/challenges?${params.toString()}`, adminChallengeListSchema, signal);
}

export function adminChallengesQueryOptions() {
  return infiniteQueryOptions({
    queryKey: adminChallengesQueryKey,
    queryFn: ({ pageParam, signal }) => getAdminChallenges(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === ADMIN_CHALLENGES_PAGE_SIZE ? lastPage.at(-1)?.id : undefined,
  });
}

export function useAdminChallenges() {
  return useInfiniteQuery(adminChallengesQueryOptions());
}
