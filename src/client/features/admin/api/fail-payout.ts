import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminPayoutSchema, type AdminPayoutView } from '#shared/contracts/payouts.ts';
import { postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminPayoutsQueryKey } from './get-admin-payouts.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface FailPayoutInput {
  payoutId: number;
  /** Shown to the player. */
  reason: string;
}

/** Marks a payout as failed: the held amount returns to the player's balance. */
export function failPayout({ payoutId, reason }: FailPayoutInput): Promise<AdminPayoutView> {
  return postJson(`/api/admin/payouts/${payoutId}/fail`, { reason }, adminPayoutSchema);
}

export function useFailPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: failPayout,
    onSuccess: (payout) => {
      toast({
        title: 'Payout failed',
        description: `${formatDollars(payout.amount)} went back to ${payout.username}'s balance.`,
      });
      void refreshAdminViews(queryClient, [adminPayoutsQueryKey, adminUsersQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to mark payout as failed'),
  });
}
