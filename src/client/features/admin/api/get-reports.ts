import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminReportSchema, type AdminReport } from '#shared/contracts/reports.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

export const REPORTS_PAGE_SIZE = 50;

export const adminReportsQueryKey = ['admin', 'reports'] as const;

const reportListSchema = z.array(adminReportSchema);

/** One page of the REPORTS queue: open reports first, then resolved ones; paged by offset. */
export function getReports(offset: number, signal?: AbortSignal): Promise<AdminReport[]> {
  const params = new URLSearchParams({
    limit: String(REPORTS_PAGE_SIZE),
    offset: String(offset),
  });
  return getJson(`/api/admin/reports?${params.toString()}`, reportListSchema, signal);
}

export function reportsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: adminReportsQueryKey,
    queryFn: ({ pageParam, signal }) => getReports(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, allPages) =>
      lastPage.length === REPORTS_PAGE_SIZE ? allPages.length * REPORTS_PAGE_SIZE : undefined,
  });
}

export function useReports() {
  return useInfiniteQuery(reportsQueryOptions());
}
