import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminChargebacksSchema, type AdminChargeback } from '#shared/contracts/chargebacks.ts';
import { getJson } from '#client/lib/api-client.ts';

export const adminChargebacksQueryKey = ['admin', 'chargebacks'] as const;

/** The CHARGEBACKS tab's disputes, newest first (docs/chargebacks.md). */
export function getChargebacks(signal?: AbortSignal): Promise<AdminChargeback[]> {
  return getJson('/api/admin/chargebacks', adminChargebacksSchema, signal);
}

export function chargebacksQueryOptions() {
  return queryOptions({
    queryKey: adminChargebacksQueryKey,
    queryFn: ({ signal }) => getChargebacks(signal),
  });
}

export function useChargebacks() {
  return useQuery(chargebacksQueryOptions());
}
