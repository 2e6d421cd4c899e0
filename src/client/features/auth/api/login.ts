import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { loginBodySchema, PublicUser } from '#shared/contracts/auth.ts';
import type { z } from '#shared/validation.ts';
import { loadedOnce, postJson } from '#client/lib/api-client.ts';
import { toast, type ToastHandle } from '#client/lib/toast.ts';
import { setSessionUser } from './session-cache.ts';

export type LoginInput = z.output<typeof loginBodySchema>;

/** The user, signed in; or, when two-factor sign-in is on, word that a code is due first. */
export type LoginResult = PublicUser | { twoFactorRequired: true };

// Loaded on first use, as the user's contract is: this module is in the entry chunk.
// Only the finished schema leaves its module: handing zod's `z` itself around would make the
// bundler keep all of zod (its locales and JSON-schema tools included) in the lobby's chunk.
const loadLoginResultSchema = loadedOnce(
  async () => (await import('#shared/contracts/account-security.ts')).signInResponseSchema,
);

export function login(body: LoginInput): Promise<LoginResult> {
  return postJson('/api/login', body, loadLoginResultSchema);
}

export const needsSecondStep = (result: LoginResult): result is { twoFactorRequired: true } =>
  'twoFactorRequired' in result;

export function useLogin() {
  const queryClient = useQueryClient();
  // A failure's toast is stale once the player tries again: it must not outlive a success.
  const failure = useRef<ToastHandle | null>(null);
  return useMutation({
    onMutate: () => {
      failure.current?.dismiss();
      failure.current = null;
    },
    mutationFn: login,
    onSuccess: (result) => {
      if (!needsSecondStep(result)) setSessionUser(queryClient, result);
    },
    onError: (error) => {
      failure.current = toast({
        title: 'Login failed',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
