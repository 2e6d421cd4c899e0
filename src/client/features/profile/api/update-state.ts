import { useMutation, useQueryClient } from '@tanstack/react-query';
import { publicUserSchema, type PublicUser } from '#shared/contracts/auth.ts';
import { stateName, type StateCode } from '#shared/us-states.ts';
import { requestJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';

/**
 * `PATCH /api/user {state}` (docs/responsible-play.md): the player's declared state, audited by the
 * server.
 */
export function updateState(state: StateCode): Promise<PublicUser> {
  return requestJson('PATCH', '/api/user', publicUserSchema, { body: { state } });
}

export function useUpdateState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateState,
    onSuccess: (user, state) => {
      queryClient.setQueryData(userQueryKey, user);
      toast({ title: 'STATE UPDATED', description: `Your state is now ${stateName(state)}.` });
    },
  });
}
