import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '#shared/contracts/account-security.ts';
import type { clearLinkBodySchema } from '#shared/contracts/insights.ts';
import type { z } from '#shared/validation.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminPayoutsQueryKey } from './get-admin-payouts.ts';
import { playersQueryKey } from './get-player.ts';
import { riskQueryKey } from './get-risk.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface ClearDeviceLinkInput extends z.input<typeof clearLinkBodySchema> {
  userId: number;
}

/**
 * Clears the link between two accounts that shared a device, with the admin's note on why it is
 * innocent (docs/accounts.md): the pair may play each other from then on.
 */
export function clearDeviceLink({ userId, ...body }: ClearDeviceLinkInput) {
  return postJson(`/api/admin/players/${userId}/links/clear`, body, messageResponseSchema);
}

export function useClearDeviceLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearDeviceLink,
    onSuccess: (answer) => {
      toast({ title: answer.message, description: 'The note is kept in the audit log.' });
      // Both players' pages list the link; the RISK tab and the payouts a signal holds may change.
      void refreshAdminViews(queryClient, [playersQueryKey, riskQueryKey, adminPayoutsQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to clear the link'),
  });
}
