import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminNoteSchema, type AdminNoteView } from '#shared/contracts/insights.ts';
import { postJson } from '#client/lib/api-client.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { playerQueryKey } from './get-player.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface AdminNoteInput {
  userId: number;
  body: string;
}

/** Writes an admin's note on a player; the server keeps it in the audit log too. */
export function addAdminNote({ userId, body }: AdminNoteInput): Promise<AdminNoteView> {
  return postJson(`/api/admin/players/${userId}/notes`, { body }, adminNoteSchema);
}

export function useAddAdminNote(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => addAdminNote({ userId, body }),
    onSuccess: () => refreshAdminViews(queryClient, [playerQueryKey(userId)]),
    onError: (error) => adminErrorToast(error, 'Failed to save the note'),
  });
}
