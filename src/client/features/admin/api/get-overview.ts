import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  exportFileName,
  overviewSchema,
  type ExportName,
  type Overview,
} from '#shared/contracts/insights.ts';
import { getJson } from '#client/lib/api-client.ts';

/** A range of UTC days, both included, as `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

export const overviewQueryKey = (range: DayRange) =>
  ['admin', 'overview', range.from, range.to] as const;

const rangeQuery = ({ from, to }: DayRange) =>
  `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

/** The operator's figures for a range, with one row per day (docs/operator-tools.md). */
export function getOverview(range: DayRange, signal?: AbortSignal): Promise<Overview> {
  return getJson(`/api/admin/overview?${rangeQuery(range)}`, overviewSchema, signal);
}

/** Where one of the CSV exports of the range downloads; the server records who took it. */
export const exportCsvUrl = (name: ExportName, range: DayRange): string =>
  `/api/admin/exports/${name}.csv?${rangeQuery(range)}`;

export const exportCsvFileName = (name: ExportName, range: DayRange): string =>
  exportFileName(name, range.from, range.to);

export function overviewQueryOptions(range: DayRange) {
  return queryOptions({
    queryKey: overviewQueryKey(range),
    queryFn: ({ signal }) => getOverview(range, signal),
    // A new range keeps the last figures on screen until its own arrive.
    placeholderData: keepPreviousData,
  });
}

export function useOverview(range: DayRange) {
  return useQuery(overviewQueryOptions(range));
}
