import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { loadChallengeSchema } from './get-challenge.ts';
import { storeChallenge } from './invalidate-challenges.ts';

/**
 * The opponent of a direct challenge turns it down (docs/challenges.md#finding-an-opponent); the
 * creator's stake returns.
 */
export function declineChallenge(id: number): Promise<ChallengeView> {
  return postJson(`/api/challenges/${id}/decline`, undefined, loadChallengeSchema);
}

export function useDeclineChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: declineChallenge,
    onSuccess: (challenge) => {
      toast({
        title: 'Challenge declined',
        description: `${challenge.creator.username} gets their stake back.`,
      });
      void storeChallenge(queryClient, challenge);
    },
    onError: (error) => {
      toast({
        title: 'Could not decline challenge',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
