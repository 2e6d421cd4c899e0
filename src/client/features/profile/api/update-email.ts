import { useMutation, useQueryClient } from '@tanstack/react-query';
import { publicUserSchema, type PublicUser } from '#shared/contracts/auth.ts';
import { PROFILE_MESSAGES, type updateEmailBodySchema } from '#shared/contracts/profile.ts';
import type { z } from '#shared/validation.ts';
import { ApiError, postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';

export type UpdateEmailInput = z.output<typeof updateEmailBodySchema>;

export function updateEmail(body: UpdateEmailInput): Promise<PublicUser> {
  return postJson('/api/user/update-email', body, publicUserSchema);
}

/** docs/product.md#messages: the toast for an address that does not look like one. */
export function invalidEmailToast(): void {
  toast({
    title: 'INVALID EMAIL FORMAT',
    description: PROFILE_MESSAGES.emailInvalid,
    variant: 'destructive',
  });
}

export function useUpdateEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmail,
    onSuccess: (user) => {
      // The answer is the signed-in user as it now is: the contact card shows it at once.
      queryClient.setQueryData(userQueryKey, user);
      toast({ title: 'EMAIL UPDATED', description: `Your email is now ${user.email ?? ''}.` });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields?.email) {
        invalidEmailToast();
        return;
      }
      toast({
        title: 'UPDATE FAILED',
        description: 'An error occurred while updating your email.',
        variant: 'destructive',
      });
    },
  });
}
