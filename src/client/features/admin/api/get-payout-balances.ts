import { queryOptions, useQuery } from '@tanstack/react-query';
import { payoutBalancesSchema, type PayoutBalances } from '#shared/contracts/payouts.ts';
import { getJson } from '#client/lib/api-client.ts';

export const payoutBalancesQueryKey = ['admin', 'payout-balances'] as const;

/** The payout provider's balance of each offered coin (docs/payouts.md). */
export function getPayoutBalances(signal?: AbortSignal): Promise<PayoutBalances> {
  return getJson('/api/admin/payouts/balances', payoutBalancesSchema, signal);
}

export function usePayoutBalances() {
  return useQuery(
    queryOptions({
      queryKey: payoutBalancesQueryKey,
      queryFn: ({ signal }) => getPayoutBalances(signal),
    }),
  );
}
