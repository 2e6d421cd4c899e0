import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteUserResponseSchema, type DeleteUserResponse } from '#shared/contracts/admin.ts';
import { requestJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminChallengesQueryKey } from './get-admin-challenges.ts';
import { adminDisputesQueryKey } from './get-disputes.ts';
import { adminPayoutsQueryKey } from './get-admin-payouts.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export const DELETE_USER_FAILED = 'Failed to delete user';

export interface DeleteUserInput {
  userId: number;
  reason?: string | undefined;
}

/** Deletes an account for good; the body (a reason for the audit log) is optional. */
export function deleteUser({ userId, reason }: DeleteUserInput): Promise<DeleteUserResponse> {
  return requestJson('DELETE', `/api/admin/users/${userId}`, deleteUserResponseSchema, {
    body: reason ? { reason } : undefined,
  });
}

/** What the deletion did besides removing the account, in one sentence. */
export function describeDeletion(summary: DeleteUserResponse): string {
  const parts = [
    summary.cancelledChallengeIds.length > 0 &&
      `${summary.cancelledChallengeIds.length} open challenge(s) cancelled`,
    summary.disputedChallengeIds.length > 0 &&
      `${summary.disputedChallengeIds.length} accepted challenge(s) sent to disputes`,
    summary.failedPayoutIds.length > 0 &&
      `${summary.failedPayoutIds.length} pending payout(s) failed`,
    summary.unclaimed > 0 && `${formatDollars(summary.unclaimed)} moved to unclaimed funds`,
  ].filter(Boolean);
  return parts.length > 0 ? `${parts.join(', ')}.` : 'The account held no money or challenges.';
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (summary) => {
      toast({ title: summary.message, description: describeDeletion(summary) });
      void refreshAdminViews(queryClient, [
        adminUsersQueryKey,
        adminChallengesQueryKey,
        adminDisputesQueryKey,
        adminPayoutsQueryKey,
      ]);
    },
    onError: (error) => adminErrorToast(error, DELETE_USER_FAILED),
  });
}
