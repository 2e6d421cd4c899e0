import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResolveDisputeBody } from '#shared/contracts/admin.ts';
import { challengeSchema, type ChallengeView } from '#shared/contracts/challenges.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminChallengesQueryKey } from './get-admin-challenges.ts';
import { adminDisputesQueryKey } from './get-disputes.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface ResolveDisputeInput extends ResolveDisputeBody {
  challengeId: number;
}

/** Awards the match to either player or refunds both; the decision is final. */
export function resolveDispute({
  challengeId,
  ...body
}: ResolveDisputeInput): Promise<ChallengeView> {
  return postJson(`/api/admin/disputes/${challengeId}/resolve`, body, challengeSchema);
}

export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveDispute,
    onSuccess: (challenge) => {
      const winner =
        challenge.winnerId === challenge.creatorId
          ? challenge.creator.username
          : challenge.acceptor?.username;
      toast({
        title: 'Dispute resolved',
        description:
          challenge.status === 'cancelled' || !winner
            ? `${challenge.game}: both stakes were refunded.`
            : `${challenge.game}: awarded to ${winner}.`,
      });
      void refreshAdminViews(queryClient, [
        adminDisputesQueryKey,
        adminChallengesQueryKey,
        adminUsersQueryKey,
      ]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to resolve dispute'),
  });
}
