import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicUser, registerBodySchema } from '#shared/contracts/auth.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { loadPublicUserSchema } from './get-user.ts';
import { setSessionUser } from './session-cache.ts';

export type RegisterInput = z.output<typeof registerBodySchema>;

export function register(body: RegisterInput): Promise<PublicUser> {
  return postJson('/api/register', body, loadPublicUserSchema);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => setSessionUser(queryClient, user),
    onError: (error) => {
      toast({ title: 'Registration failed', description: error.message, variant: 'destructive' });
    },
  });
}
