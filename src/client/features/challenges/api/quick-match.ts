import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import {
  quickMatchResponseSchema,
  type QuickMatchResponse,
  type quickMatchBodySchema,
} from '#shared/contracts/challenges.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshIfSuspended, refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { storeChallenge } from './invalidate-challenges.ts';

export type QuickMatchInput = z.output<typeof quickMatchBodySchema>;

export function quickMatch(body: QuickMatchInput): Promise<QuickMatchResponse> {
  return postJson('/api/quick-match', body, quickMatchResponseSchema);
}

/**
 * Quick match (docs/challenges.md#finding-an-opponent): the player lands on the match it made, or
 * on the challenge that now waits for the next player asking on the same terms.
 */
export function useQuickMatch() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: quickMatch,
    onSuccess: ({ challenge, matched }) => {
      toast(
        matched
          ? {
              title: 'Match found!',
              description: `You face ${challenge.creator.username} for ${formatDollars(challenge.amount)}.`,
            }
          : {
              title: 'Waiting for an opponent',
              description:
                'Your challenge is live: the next player who asks for these terms meets you.',
            },
      );
      void storeChallenge(queryClient, challenge);
      void refreshSessionUser(queryClient);
      navigate(`/challenges/${challenge.id}`);
    },
    onError: (error) => {
      toast({ title: 'No quick match', description: error.message, variant: 'destructive' });
      refreshIfSuspended(queryClient, error);
    },
  });
}
