import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  revokeOthersResponseSchema,
  type SessionView,
} from '#shared/contracts/account-security.ts';
import { ApiError, postJson, serverText } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { sessionsQueryKey } from './get-sessions.ts';

/** Signs out every browser of the player but this one; answers how many there were. */
export function revokeOtherSessions(): Promise<{ revoked: number }> {
  return postJson('/api/user/sessions/revoke-others', undefined, revokeOthersResponseSchema);
}

function otherDevices(count: number): string {
  return count === 1 ? '1 other device' : `${count} other devices`;
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: ({ revoked }) => {
      queryClient.setQueryData<SessionView[]>(sessionsQueryKey, (sessions) =>
        sessions?.filter((session) => session.current),
      );
      toast({
        title: 'SIGNED OUT EVERYWHERE ELSE',
        description: `${otherDevices(revoked)} signed out. This device stays signed in.`,
      });
    },
    onError: (error) =>
      toast({
        title: 'SIGN OUT FAILED',
        description: error instanceof ApiError ? serverText(error) : error.message,
        variant: 'destructive',
      }),
  });
}
