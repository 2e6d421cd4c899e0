import { queryOptions, useQuery } from '@tanstack/react-query';
import { payoutLimitsSchema, type PayoutLimits } from '#shared/contracts/payouts.ts';
import { getJson } from '#client/lib/api-client.ts';

export const payoutLimitsQueryKey = ['payout-limits'] as const;

/** What of the wallet may leave as a payout, and what may go back to its card only. */
export function getPayoutLimits(signal?: AbortSignal): Promise<PayoutLimits> {
  return getJson('/api/payouts/limits', payoutLimitsSchema, signal);
}

/** Read afresh each time the payout form opens: card money clears with time and play. */
export function usePayoutLimits() {
  return useQuery(
    queryOptions({
      queryKey: payoutLimitsQueryKey,
      queryFn: ({ signal }) => getPayoutLimits(signal),
      staleTime: 0,
      refetchOnMount: 'always',
    }),
  );
}
