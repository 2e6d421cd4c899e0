import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import {
  adminPayoutSchema,
  type AdminPayoutView,
  type PayoutStatusValue,
} from '#shared/contracts/payouts.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

export const ADMIN_PAYOUTS_PAGE_SIZE = 50;

/** The prefix of every payout queue's key, whatever its status filter. */
export const adminPayoutsQueryKey = ['admin', 'payouts'] as const;

/** A status, or every payout. */
export type PayoutQueueFilter = PayoutStatusValue | 'all';

const adminPayoutListSchema = z.array(adminPayoutSchema);

export function getAdminPayouts(
  filter: PayoutQueueFilter,
  before: number | undefined,
  signal?: AbortSignal,
): Promise<AdminPayoutView[]> {
  const params = new URLSearchParams({ limit: String(ADMIN_PAYOUTS_PAGE_SIZE) });
  if (filter !== 'all') params.set('status', filter);
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/admin/payouts?${params.toString()}`, adminPayoutListSchema, signal);
}

export function adminPayoutsQueryOptions(filter: PayoutQueueFilter) {
  return infiniteQueryOptions({
    queryKey: [...adminPayoutsQueryKey, filter],
    queryFn: ({ pageParam, signal }) => getAdminPayouts(filter, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === ADMIN_PAYOUTS_PAGE_SIZE ? lastPage.at(-1)?.id : undefined,
  });
}

export function useAdminPayouts(filter: PayoutQueueFilter) {
  return useInfiniteQuery(adminPayoutsQueryOptions(filter));
}
