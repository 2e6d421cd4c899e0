import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import {
  recoveryCodesResponseSchema,
  type twoFactorCodeBodySchema,
} from '#shared/contracts/account-security.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';

export type TwoFactorCodeInput = z.output<typeof twoFactorCodeBodySchema>;

/** Confirms the set-up with a first code; answers the ten recovery codes, the only time. */
export function enableTwoFactor(body: TwoFactorCodeInput): Promise<{ recoveryCodes: string[] }> {
  return postJson('/api/user/2fa/enable', body, recoveryCodesResponseSchema);
}

export function useEnableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: () => {
      queryClient.setQueryData<PublicUser | null>(userQueryKey, (user) =>
        user ? { ...user, twoFactorEnabled: true } : user,
      );
    },
  });
}
