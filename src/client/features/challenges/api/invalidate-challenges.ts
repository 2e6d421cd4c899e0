import type { QueryClient } from '@tanstack/react-query';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { readAgain } from '#client/lib/query-client.ts';
import { challengeCountsQueryKey } from './get-challenge-counts.ts';
import { challengeQueryKey } from './get-challenge.ts';
import { challengeListsQueryKey } from './get-challenges.ts';

/**
 * After a challenge changed (here or, through the account socket, anywhere): every list and the
 * counts may have moved, and so has that challenge's own page.
 */
export async function invalidateChallenge(queryClient: QueryClient, id: number): Promise<void> {
  // readAgain: a list's first read may still be under way, answered before this change.
  await Promise.all([
    readAgain(queryClient, challengeListsQueryKey),
    readAgain(queryClient, challengeCountsQueryKey),
    readAgain(queryClient, challengeQueryKey(id)),
  ]);
}

/** A mutation answered with the challenge as it now is: show that at once, then refresh lists. */
export async function storeChallenge(queryClient: QueryClient, challenge: ChallengeView) {
  queryClient.setQueryData(challengeQueryKey(challenge.id), challenge);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: challengeListsQueryKey }),
    queryClient.invalidateQueries({ queryKey: challengeCountsQueryKey }),
  ]);
}
