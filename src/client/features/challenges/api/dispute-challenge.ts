import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  challengeSchema,
  type ChallengeView,
  type disputeBodySchema,
} from '#shared/contracts/challenges.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { storeChallenge } from './invalidate-challenges.ts';

export type DisputeInput = z.output<typeof disputeBodySchema>;

/** The player who did not submit contests the result, within the dispute window. */
export function disputeChallenge(id: number, body: DisputeInput): Promise<ChallengeView> {
  return postJson(`/api/challenges/${id}/dispute`, body, challengeSchema);
}

export function useDisputeChallenge(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DisputeInput) => disputeChallenge(id, body),
    onSuccess: (challenge) => {
      toast({ title: 'Result disputed', description: 'An admin will review this match.' });
      void storeChallenge(queryClient, challenge);
    },
    onError: (error) => {
      toast({ title: 'Dispute failed', description: error.message, variant: 'destructive' });
    },
  });
}
