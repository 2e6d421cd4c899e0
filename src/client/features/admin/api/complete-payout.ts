import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminPayoutSchema, type AdminPayoutView } from '#shared/contracts/payouts.ts';
import { postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminPayoutsQueryKey } from './get-admin-payouts.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface CompletePayoutInput {
  payoutId: number;
  /** For the record, e.g. the chain's transaction id. */
  note?: string | undefined;
}

/** Marks a payout as sent: the held amount leaves for good. */
export function completePayout({ payoutId, note }: CompletePayoutInput): Promise<AdminPayoutView> {
  return postJson(
    `/api/admin/payouts/${payoutId}/complete`,
    note ? { note } : {},
    adminPayoutSchema,
  );
}

export function useCompletePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completePayout,
    onSuccess: (payout) => {
      toast({
        title: 'Payout completed',
        description: `${formatDollars(payout.amount)} to ${payout.username} is marked as sent.`,
      });
      void refreshAdminViews(queryClient, [adminPayoutsQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to complete payout'),
  });
}
