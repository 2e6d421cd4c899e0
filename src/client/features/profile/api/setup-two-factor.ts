import { useMutation } from '@tanstack/react-query';
import {
  twoFactorSetupResponseSchema,
  type TwoFactorSetup,
} from '#shared/contracts/account-security.ts';
import { postJson } from '#client/lib/api-client.ts';

/** A new secret to add to an authenticator app; it counts only once a code of it is confirmed. */
export function setupTwoFactor(): Promise<TwoFactorSetup> {
  return postJson('/api/user/2fa/setup', undefined, twoFactorSetupResponseSchema);
}

export function useSetupTwoFactor() {
  return useMutation({ mutationFn: setupTwoFactor });
}
