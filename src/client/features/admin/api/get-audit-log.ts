import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { auditPageSchema, type AuditPage } from '#shared/contracts/admin.ts';
import { getJson } from '#client/lib/api-client.ts';

export const AUDIT_PAGE_SIZE = 50;

export const auditLogQueryKey = ['admin', 'audit'] as const;

/** One page of admin actions, newest first; `nextBefore` leads to the older ones. */
export function getAuditLog(before: number | undefined, signal?: AbortSignal): Promise<AuditPage> {
  const params = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/admin/audit?${params.toString()}`, auditPageSchema, signal);
}

export function auditLogQueryOptions() {
  return infiniteQueryOptions({
    queryKey: auditLogQueryKey,
    queryFn: ({ pageParam, signal }) => getAuditLog(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => lastPage.nextBefore ?? undefined,
  });
}

export function useAuditLog() {
  return useInfiniteQuery(auditLogQueryOptions());
}
