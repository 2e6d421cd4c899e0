import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionView } from '#shared/contracts/account-security.ts';
import { ApiError, sendRequest, serverText } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { deviceName, sessionsQueryKey } from './get-sessions.ts';

/** Signs one of the player's other browsers out. */
export function revokeSession(session: SessionView): Promise<void> {
  return sendRequest('DELETE', `/api/user/sessions/${session.id}`);
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  const dropFromList = (id: number) =>
    queryClient.setQueryData<SessionView[]>(sessionsQueryKey, (sessions) =>
      sessions?.filter((session) => session.id !== id),
    );
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: (_, session) => {
      dropFromList(session.id);
      toast({ title: 'DEVICE SIGNED OUT', description: `${deviceName(session)} is signed out.` });
    },
    onError: (error, session) => {
      // Already gone (it expired, or was signed out from elsewhere): the list was behind.
      if (error instanceof ApiError && error.status === 404) dropFromList(session.id);
      toast({
        title: 'SIGN OUT FAILED',
        description: error instanceof ApiError ? serverText(error) : error.message,
        variant: 'destructive',
      });
    },
  });
}
