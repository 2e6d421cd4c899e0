import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { TransactionPage } from '#shared/contracts/wallet.ts';
import { getJson } from '#client/lib/api-client.ts';

export const TRANSACTION_PAGE_SIZE = 20;

export const transactionsQueryKey = ['transactions'] as const;

/**
 * Loaded with the first request: the account socket, which every signed-in page opens just after
 * its first paint, needs only this module's key, not the wallet's contracts.
 */
async function loadTransactionPageSchema() {
  return (await import('#shared/contracts/wallet.ts')).transactionPageSchema;
}

/** One page of the signed-in player's wallet movements, newest first. */
export function getTransactions(
  before: number | undefined,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  const params = new URLSearchParams({ limit: String(TRANSACTION_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/transactions?${params.toString()}`, loadTransactionPageSchema, signal);
}

export function transactionsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: transactionsQueryKey,
    queryFn: ({ pageParam, signal }) => getTransactions(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) => lastPage.nextBefore ?? undefined,
  });
}

export function useTransactions() {
  return useInfiniteQuery(transactionsQueryOptions());
}
