import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import type { twoFactorCodeBodySchema } from '#shared/contracts/account-security.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { loadPublicUserSchema } from './get-user.ts';
import { setSessionUser } from './session-cache.ts';

export type SecondStepInput = z.output<typeof twoFactorCodeBodySchema>;

/**
 * The code that completes a sign-in whose password was right (docs/accounts.md#account-security).
 */
export function loginSecondStep(body: SecondStepInput): Promise<PublicUser> {
  return postJson('/api/login/2fa', body, loadPublicUserSchema);
}

export function useLoginSecondStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginSecondStep,
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}
