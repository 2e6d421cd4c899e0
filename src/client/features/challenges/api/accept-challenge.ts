import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshIfSuspended, refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { loadChallengeSchema } from './get-challenge.ts';
import { storeChallenge } from './invalidate-challenges.ts';

export function acceptChallenge(id: number): Promise<ChallengeView> {
  return postJson(`/api/challenges/${id}/accept`, undefined, loadChallengeSchema);
}

export function useAcceptChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptChallenge,
    onSuccess: (challenge) => {
      toast({ title: 'Challenge accepted!', description: 'Get ready to compete!' });
      void storeChallenge(queryClient, challenge);
      void refreshSessionUser(queryClient);
    },
    onError: (error) => {
      toast({
        title: 'Could not accept challenge',
        description: error.message,
        variant: 'destructive',
      });
      refreshIfSuspended(queryClient, error);
    },
  });
}
