import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminDisputeSchema, type AdminDispute } from '#shared/contracts/admin.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

export const DISPUTES_PAGE_SIZE = 50;

export const adminDisputesQueryKey = ['admin', 'disputes'] as const;

const disputeListSchema = z.array(adminDisputeSchema);

/** One page of challenges waiting for an admin's decision, newest first. */
export function getDisputes(
  before: number | undefined,
  signal?: AbortSignal,
): Promise<AdminDispute[]> {
  const params = new URLSearchParams({ limit: String(DISPUTES_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/admin/disputes?${params.toString()}`, disputeListSchema, signal);
}

export function disputesQueryOptions() {
  return infiniteQueryOptions({
    queryKey: adminDisputesQueryKey,
    queryFn: ({ pageParam, signal }) => getDisputes(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === DISPUTES_PAGE_SIZE ? lastPage.at(-1)?.id : undefined,
  });
}

export function useDisputes() {
  return useInfiniteQuery(disputesQueryOptions());
}
