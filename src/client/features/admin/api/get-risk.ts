import { queryOptions, useQuery } from '@tanstack/react-query';
import { riskSchema, type Risk } from '#shared/contracts/insights.ts';
import { getJson } from '#client/lib/api-client.ts';

export const riskQueryKey = ['admin', 'risk'] as const;

/** The three risk signals of docs/operator-tools.md over the operator's window. */
export function getRisk(signal?: AbortSignal): Promise<Risk> {
  return getJson('/api/admin/risk', riskSchema, signal);
}

export function riskQueryOptions() {
  return queryOptions({ queryKey: riskQueryKey, queryFn: ({ signal }) => getRisk(signal) });
}

export function useRisk() {
  return useQuery(riskQueryOptions());
}
