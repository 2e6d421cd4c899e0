import { useMutation, useQueryClient } from '@tanstack/react-query';
import { publicUserSchema, type PublicUser } from '#shared/contracts/auth.ts';
import type { twoFactorDisableBodySchema } from '#shared/contracts/account-security.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';

export type DisableTwoFactorInput = z.output<typeof twoFactorDisableBodySchema>;

/** Turns two-factor sign-in off with the password and a code; answers the user as it now is. */
export function disableTwoFactor(body: DisableTwoFactorInput): Promise<PublicUser> {
  return postJson('/api/user/2fa/disable', body, publicUserSchema);
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: (user) => queryClient.setQueryData(userQueryKey, user),
  });
}
