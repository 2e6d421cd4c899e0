import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminPayoutSchema, type AdminPayoutView } from '#shared/contracts/payouts.ts';
import { postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminPayoutsQueryKey } from './get-admin-payouts.ts';
import { payoutBalancesQueryKey } from './get-payout-balances.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

/** APPROVE & SEND (docs/payouts.md): a payout held for review goes to the sender's queue. */
export function approvePayout(payoutId: number): Promise<AdminPayoutView> {
  return postJson(`/api/admin/payouts/${payoutId}/approve`, {}, adminPayoutSchema);
}

export function useApprovePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approvePayout,
    onSuccess: (payout) => {
      toast({
        title: 'Payout approved',
        description: `${formatDollars(payout.amount)} to ${payout.username} is queued to send.`,
      });
      void refreshAdminViews(queryClient, [adminPayoutsQueryKey, payoutBalancesQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to approve payout'),
  });
}
