import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import {
  adminVerificationSchema,
  type AdminVerification,
  type LICENSE_REVIEW_STATUSES,
} from '#shared/contracts/admin.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

export const VERIFICATIONS_PAGE_SIZE = 50;

/** The prefix of every verification queue's key, whatever its status filter. */
export const adminVerificationsQueryKey = ['admin', 'verifications'] as const;

export type VerificationQueueFilter = (typeof LICENSE_REVIEW_STATUSES)[number] | 'all';

const verificationListSchema = z.array(adminVerificationSchema);

export function getVerifications(
  filter: VerificationQueueFilter,
  before: number | undefined,
  signal?: AbortSignal,
): Promise<AdminVerification[]> {
  const params = new URLSearchParams({ limit: String(VERIFICATIONS_PAGE_SIZE) });
  if (filter !== 'all') params.set('status', filter);
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/admin/verifications?${params.toString()}`, verificationListSchema, signal);
}

export function verificationsQueryOptions(filter: VerificationQueueFilter) {
  return infiniteQueryOptions({
    queryKey: [...adminVerificationsQueryKey, filter],
    queryFn: ({ pageParam, signal }) => getVerifications(filter, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === VERIFICATIONS_PAGE_SIZE ? lastPage.at(-1)?.id : undefined,
  });
}

export function useVerifications(filter: VerificationQueueFilter) {
  return useInfiniteQuery(verificationsQueryOptions(filter));
}
