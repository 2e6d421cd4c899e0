import { QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * docs/product.md#calls: reads and writes are never retried; reads never go stale and never refetch
 * on focus, reconnect or an interval. Fresh data arrives through mutations and realtime updates
 * instead.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        refetchInterval: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

/**
 * Reads the queries under `queryKey` again after a change: the shown ones now, the others when
 * next shown. Unlike invalidateQueries alone, a query's first read that is still under way is
 * started again as well: invalidateQueries restarts a read under way only once the query has
 * data, and otherwise lets that read finish and counts it as fresh, though the server may have
 * answered it before the change. Since reads never go stale, that older answer would stay.
 */
export async function readAgain(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  // Cancelled, such a query goes back to pending with no read under way (its spinner stays).
  await queryClient.cancelQueries({
    queryKey,
    predicate: (query) => query.state.data === undefined,
  });
  await queryClient.invalidateQueries({ queryKey });
}
