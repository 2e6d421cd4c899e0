import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unsuspendUserResponseSchema } from '#shared/contracts/admin.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { playersQueryKey } from './get-player.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

/** Lifts a player's suspension before its end. */
export function unsuspendUser(userId: number) {
  return postJson(`/api/admin/users/${userId}/unsuspend`, {}, unsuspendUserResponseSchema);
}

export function useUnsuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsuspendUser,
    onSuccess: (answer) => {
      toast({ title: answer.message, description: 'The player can deposit and play again.' });
      void refreshAdminViews(queryClient, [adminUsersQueryKey, playersQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to lift the suspension'),
  });
}
