import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicUser, registerBodySchema } from '#shared/contracts/auth.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast, type ToastHandle } from '#client/lib/toast.ts';
import { loadPublicUserSchema } from './get-user.ts';
import { setSessionUser } from './session-cache.ts';

export type RegisterInput = z.output<typeof registerBodySchema>;

export function register(body: RegisterInput): Promise<PublicUser> {
  return postJson('/api/register', body, loadPublicUserSchema);
}

export function useRegister() {
  const queryClient = useQueryClient();
  // A failure's toast is stale once the player tries again: it must not outlive a success.
  const failure = useRef<ToastHandle | null>(null);
  return useMutation({
    onMutate: () => {
      failure.current?.dismiss();
      failure.current = null;
    },
    mutationFn: register,
    onSuccess: (user) => setSessionUser(queryClient, user),
    onError: (error) => {
      failure.current = toast({
        title: 'Registration failed',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
