import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ChallengeStatusValue, ChallengeView } from '#shared/contracts/challenges.ts';
import { getJson, loadedOnce } from '#client/lib/api-client.ts';
import { useAfterFirstPaint } from '#client/lib/first-paint.ts';
import { writeLobbyFilters, type LobbyFilters } from '../lib/lobby-filters.ts';
import { loadChallengeSchema } from './get-challenge.ts';

/** One page of a challenge list; "Load more" appears when a page comes back full. */
export const CHALLENGE_PAGE_SIZE = 24;

export interface ChallengeListFilter {
  /** One status, or several shown together (a finished match may be under dispute). */
  status?: ChallengeStatusValue | ChallengeStatusValue[];
  /** Relative to the viewer: challenges they created, accepted, or either. */
  role?: 'created' | 'accepted' | 'mine';
  /** The lobby's filters (docs/challenges.md#finding-an-opponent), as the address bar has them. */
  lobby?: LobbyFilters;
}

/** The prefix of every challenge list's key: invalidating it refreshes all lists. */
export const challengeListsQueryKey = ['challenges', 'list'] as const;

const loadChallengeListSchema = loadedOnce(async () => (await loadChallengeSchema()).array());

/** One page of challenges, newest first or by stake; `before` is the last id of the page before. */
export function getChallenges(
  filter: ChallengeListFilter,
  page: { before?: number | undefined; limit?: number } = {},
  signal?: AbortSignal,
): Promise<ChallengeView[]> {
  const params = new URLSearchParams(filter.lobby ? writeLobbyFilters(filter.lobby) : '');
  if (filter.status) params.set('status', [filter.status].flat().join(','));
  if (filter.role) params.set('role', filter.role);
  params.set('limit', String(page.limit ?? CHALLENGE_PAGE_SIZE));
  if (page.before !== undefined) params.set('before', String(page.before));
  return getJson(`/api/challenges?${params.toString()}`, loadChallengeListSchema, signal);
}

export function challengesQueryOptions(filter: ChallengeListFilter) {
  return infiniteQueryOptions({
    queryKey: [...challengeListsQueryKey, filter],
    queryFn: ({ pageParam, signal }) => getChallenges(filter, { before: pageParam }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === CHALLENGE_PAGE_SIZE ? lastPage.at(-1)?.id : undefined,
  });
}

/** Asked for once the first frame is drawn: a page shows its heading before its lists. */
export function useChallenges(filter: ChallengeListFilter) {
  return useInfiniteQuery({ ...challengesQueryOptions(filter), enabled: useAfterFirstPaint() });
}
