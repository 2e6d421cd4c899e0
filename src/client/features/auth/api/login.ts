import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { loginBodySchema, PublicUser } from '#shared/contracts/auth.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { loadPublicUserSchema } from './get-user.ts';
import { setSessionUser } from './session-cache.ts';

export type LoginInput = z.output<typeof loginBodySchema>;

export function login(body: LoginInput): Promise<PublicUser> {
  return postJson('/api/login', body, loadPublicUserSchema);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => setSessionUser(queryClient, user),
    onError: (error) => {
      toast({ title: 'Login failed', description: error.message, variant: 'destructive' });
    },
  });
}
