import { useMutation, useQueryClient } from '@tanstack/react-query';
import { liftMoneyLockResponseSchema } from '#shared/contracts/chargebacks.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { playersQueryKey } from './get-player.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

/** Lifts the lock a card dispute put on a player's money, once they owe nothing. */
export function liftMoneyLock(userId: number) {
  return postJson(`/api/admin/users/${userId}/money-lock/lift`, {}, liftMoneyLockResponseSchema);
}

export function useLiftMoneyLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: liftMoneyLock,
    onSuccess: (answer) => {
      toast({ title: answer.message, description: 'The player can deposit, play and withdraw.' });
      void refreshAdminViews(queryClient, [adminUsersQueryKey, playersQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to lift the lock'),
  });
}
