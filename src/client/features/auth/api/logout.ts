import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendRequest } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { setSessionUser } from './session-cache.ts';

export function logout(): Promise<void> {
  return sendRequest('POST', '/api/logout');
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => setSessionUser(queryClient, null),
    onError: (error) => {
      toast({ title: 'Logout failed', description: error.message, variant: 'destructive' });
    },
  });
}
