import { queryOptions, useQuery } from '@tanstack/react-query';
import { taxReportSchema, type TaxReport } from '#shared/contracts/tax-report.ts';
import { getJson } from '#client/lib/api-client.ts';

export const taxReportQueryKey = (year: number) => ['admin', 'tax-report', year] as const;

/**
 * A year's players at or above the tax threshold (docs/responsible-play.md), highest net winnings
 * first.
 */
export function getTaxReport(year: number, signal?: AbortSignal): Promise<TaxReport> {
  return getJson(`/api/admin/tax-report?year=${year}`, taxReportSchema, signal);
}

/** Where the same rows download as a CSV file; the server records who downloaded it. */
export const taxReportCsvUrl = (year: number): string => `/api/admin/tax-report.csv?year=${year}`;

export function taxReportQueryOptions(year: number) {
  return queryOptions({
    queryKey: taxReportQueryKey(year),
    queryFn: ({ signal }) => getTaxReport(year, signal),
  });
}

export function useTaxReport(year: number) {
  return useQuery(taxReportQueryOptions(year));
}
