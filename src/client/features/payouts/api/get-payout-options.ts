import { queryOptions, useQuery } from '@tanstack/react-query';
import { payoutOptionsSchema, type PayoutOptions } from '#shared/contracts/payouts.ts';
import { getJson } from '#client/lib/api-client.ts';

export const payoutOptionsQueryKey = ['payout-options'] as const;

/** The coins payouts are offered in, and who sends them (docs/payouts.md); settings, read once. */
export function getPayoutOptions(signal?: AbortSignal): Promise<PayoutOptions> {
  return getJson('/api/payouts/options', payoutOptionsSchema, signal);
}

export function usePayoutOptions() {
  return useQuery(
    queryOptions({
      queryKey: payoutOptionsQueryKey,
      queryFn: ({ signal }) => getPayoutOptions(signal),
      staleTime: Infinity,
    }),
  );
}
