import { useMutation } from '@tanstack/react-query';
import {
  twoFactorSetupResponseSchema,
  type TwoFactorSetup,
} from '#shared/contracts/account-security.ts';
import { postJson } from '#client/lib/api-client.ts';

/**
 * A new secret to add to an authenticator app, for the account's password; it counts only once
 * a code of it is confirmed.
 */
export function setupTwoFactor(body: { password: string }): Promise<TwoFactorSetup> {
  return postJson('/api/user/2fa/setup', body, twoFactorSetupResponseSchema);
}

export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}
