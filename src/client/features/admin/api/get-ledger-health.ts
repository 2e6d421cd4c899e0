import { queryOptions, useQuery } from '@tanstack/react-query';
import { ledgerHealthSchema, type LedgerHealth } from '#shared/contracts/admin.ts';
import { getJson } from '#client/lib/api-client.ts';

export const ledgerHealthQueryKey = ['admin', 'ledger-health'] as const;

/**
 * The money core's invariant check (docs/money-and-ledger.md): OK, or the list of what is wrong.
 */
export function getLedgerHealth(signal?: AbortSignal): Promise<LedgerHealth> {
  return getJson('/api/admin/ledger-health', ledgerHealthSchema, signal);
}

export function ledgerHealthQueryOptions() {
  return queryOptions({
    queryKey: ledgerHealthQueryKey,
    queryFn: ({ signal }) => getLedgerHealth(signal),
  });
}

export function useLedgerHealth() {
  return useQuery(ledgerHealthQueryOptions());
}
