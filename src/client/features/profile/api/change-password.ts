import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  messageResponseSchema,
  type ChangePasswordBody,
} from '#shared/contracts/account-security.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { sessionsQueryKey } from './get-sessions.ts';

/**
 * Sets a new password; the server ends every other session of the player
 * (docs/accounts.md#account-security).
 */
export function changePassword(body: ChangePasswordBody): Promise<{ message: string }> {
  return postJson('/api/user/password', body, messageResponseSchema);
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ message }) => {
      toast({ title: 'PASSWORD CHANGED', description: message });
      // The other devices were signed out: the Devices card should no longer list them.
      void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    },
  });
}
