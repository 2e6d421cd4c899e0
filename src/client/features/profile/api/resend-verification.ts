import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '#shared/contracts/account-security.ts';
import { ApiError, postJson, serverText } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';

/**
 * Mails a new verification link to the signed-in player's address
 * (docs/accounts.md#account-security).
 */
export function resendVerification(): Promise<{ message: string }> {
  return postJson('/api/user/verify-email/resend', undefined, messageResponseSchema);
}

export function useResendVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: ({ message }) => toast({ title: 'VERIFICATION LINK SENT', description: message }),
    onError: (error) => {
      toast({
        title: 'LINK NOT SENT',
        description: error instanceof ApiError ? serverText(error) : error.message,
        variant: 'destructive',
      });
      // No address (400), or one verified meanwhile in another tab (409): the page is behind.
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        void refreshSessionUser(queryClient);
      }
    },
  });
}
