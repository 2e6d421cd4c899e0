import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  challengeSchema,
  type ChallengeView,
  type createChallengeBodySchema,
} from '#shared/contracts/challenges.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshIfSuspended, refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { storeChallenge } from './invalidate-challenges.ts';

export type CreateChallengeInput = z.output<typeof createChallengeBodySchema>;

export function createChallenge(body: CreateChallengeInput): Promise<ChallengeView> {
  return postJson('/api/challenges', body, challengeSchema);
}

export function useCreateChallenge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChallenge,
    onSuccess: (challenge) => {
      toast({ title: 'Challenge created!', description: 'Your challenge is now live.' });
      void storeChallenge(queryClient, challenge);
      // The stake left the wallet; the socket usually says so first, this covers a lost socket.
      void refreshSessionUser(queryClient);
    },
    onError: (error) => {
      toast({ title: 'Challenge not created', description: error.message, variant: 'destructive' });
      refreshIfSuspended(queryClient, error);
    },
  });
}
