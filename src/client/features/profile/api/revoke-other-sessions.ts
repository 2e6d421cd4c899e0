import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SessionView } from '#shared/contracts/account-security.ts';
import { z } from '#shared/validation.ts';
import { ApiError, postJson, serverText } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { sessionsQueryKey } from './get-sessions.ts';

// The contracts have no schema for this answer yet; this one follows the API's description.
const revokeOthersResponseSchema = z.object({ revoked: z.number().int().nonnegative() });

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
