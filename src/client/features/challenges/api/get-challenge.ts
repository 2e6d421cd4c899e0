import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { ApiError, getJson } from '#client/lib/api-client.ts';

/**
 * The contract of a challenge as the API shows it, loaded on first use. The lobby's cards and
 * their actions are in the chunks its first frame waits for, while its lists are asked for only
 * after that frame: importing the contracts here would build every challenge schema before it.
 */
export async function loadChallengeSchema() {
  return (await import('#shared/contracts/challenge-view.ts')).challengeSchema;
}

/** The prefix of every single-challenge key. */
export const challengeDetailsQueryKey = ['challenges', 'detail'] as const;

export function challengeQueryKey(id: number) {
  return [...challengeDetailsQueryKey, id] as const;
}

/** The challenge, or null when there is none with this id (404). */
export async function getChallenge(
  id: number,
  signal?: AbortSignal,
): Promise<ChallengeView | null> {
  try {
    return await getJson(`/api/challenges/${id}`, loadChallengeSchema, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw new Error('Failed to fetch challenge', { cause: error });
  }
}

export function challengeQueryOptions(id: number) {
  return queryOptions({
    queryKey: challengeQueryKey(id),
    queryFn: ({ signal }) => getChallenge(id, signal),
  });
}

export function useChallenge(id: number | null) {
  return useQuery({ ...challengeQueryOptions(id ?? 0), enabled: id !== null });
}
