import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  suspendUserResponseSchema,
  type SuspendUserBody,
  type SuspendUserResponse,
} from '#shared/contracts/admin.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminChallengesQueryKey } from './get-admin-challenges.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { playersQueryKey } from './get-player.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface SuspendUserInput extends SuspendUserBody {
  userId: number;
}

/** Suspends a player (docs/fair-play.md); their open challenges are withdrawn with the stakes. */
export function suspendUser({ userId, ...body }: SuspendUserInput): Promise<SuspendUserResponse> {
  return postJson(`/api/admin/users/${userId}/suspend`, body, suspendUserResponseSchema);
}

/** What the suspension did besides suspending, in one sentence. */
export function describeSuspension(summary: SuspendUserResponse): string {
  const withdrawn = summary.cancelledChallengeIds.length;
  return withdrawn === 0
    ? 'They had no open challenges.'
    : `${withdrawn} open challenge(s) cancelled and the stakes refunded.`;
}

export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: suspendUser,
    onSuccess: (summary) => {
      toast({ title: summary.message, description: describeSuspension(summary) });
      void refreshAdminViews(queryClient, [
        adminUsersQueryKey,
        adminChallengesQueryKey,
        playersQueryKey,
      ]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to suspend user'),
  });
}
