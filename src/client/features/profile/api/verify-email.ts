import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/user.ts';
import { postJson } from '#client/lib/api-client.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';

/**
 * Proves the address of a mailed link; it works signed in or not
 * (docs/accounts.md#account-security).
 */
export function verifyEmail(token: string): Promise<{ message: string }> {
  return postJson('/api/user/verify-email', { token }, messageResponseSchema);
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => {
      // A signed-in player's profile should say Verified without a reload.
      if (queryClient.getQueryData<PublicUser | null>(userQueryKey)) {
        void refreshSessionUser(queryClient);
      }
    },
  });
}
