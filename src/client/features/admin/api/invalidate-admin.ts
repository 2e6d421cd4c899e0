import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { auditLogQueryKey } from './get-audit-log.ts';
import { ledgerHealthQueryKey } from './get-ledger-health.ts';

/**
 * After an admin action: the lists it changed, plus the audit log (every action is recorded) and
 * the ledger check (most actions move money), so the dashboard never shows a stale picture.
 */
export async function refreshAdminViews(
  queryClient: QueryClient,
  changed: readonly QueryKey[],
): Promise<void> {
  await Promise.all(
    [...changed, auditLogQueryKey, ledgerHealthQueryKey].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
