import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { loadChallengeSchema } from './get-challenge.ts';
import { storeChallenge } from './invalidate-challenges.ts';

/** The creator withdraws an open challenge; the stake comes back from escrow. */
export function cancelChallenge(id: number): Promise<ChallengeView> {
  return postJson(`/api/challenges/${id}/cancel`, undefined, loadChallengeSchema);
}

export function useCancelChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelChallenge,
    onSuccess: (challenge) => {
      toast({
        title: 'Challenge cancelled',
        description: 'Your stake has been returned to your balance.',
      });
      void storeChallenge(queryClient, challenge);
      void refreshSessionUser(queryClient);
    },
    onError: (error) => {
      toast({
        title: 'Could not cancel challenge',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
