import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { transactionPageSchema, type TransactionPage } from '#shared/contracts/wallet.ts';
import { getJson } from '#client/lib/api-client.ts';

export const TRANSACTION_PAGE_SIZE = 20;

export const transactionsQueryKey = ['transactions'] as const;

/** One page of the signed-in player's wallet movements, newest first. */
export function getTransactions(
  before: number | undefined,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  const params = new URLSearchParams({ limit: String(TRANSACTION_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/transactions?${params.toString()}`, transactionPageSchema, signal);
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
