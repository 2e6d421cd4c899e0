import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  messageResponseSchema,
  signInResponseSchema,
  type PasswordResetBody,
  type PasswordResetCompleteBody,
} from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/user.ts';
import { postJson } from '#client/lib/api-client.ts';
import { setSessionUser } from './session-cache.ts';

/** Asks for a reset link; the answer is the same sentence whether or not a mail leaves. */
export function requestPasswordReset(body: PasswordResetBody): Promise<{ message: string }> {
  return postJson('/api/password-reset', body, messageResponseSchema);
}

/**
 * What a completed reset leads to: the player signed in, or, for an account with two-factor
 * sign-in, a password step done that still waits for its code (docs/accounts.md#account-security).
 */
export type PasswordResetOutcome = PublicUser | { twoFactorRequired: true };

export function completePasswordReset(
  body: PasswordResetCompleteBody,
): Promise<PasswordResetOutcome> {
  return postJson('/api/password-reset/complete', body, signInResponseSchema);
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

/**
 * Sets the new password; a player it signs in is put in the cache, as a login does. When a code
 * is still due, nobody is signed in: the reset ended every session, this browser's included.
 */
export function useCompletePasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completePasswordReset,
    onSuccess: (outcome) => {
      setSessionUser(queryClient, 'twoFactorRequired' in outcome ? null : outcome);
    },
  });
}
