import { QueryClient } from '@tanstack/react-query';

/**
 * SPEC §7: reads and writes are never retried; reads never go stale and never refetch on focus,
 * reconnect or an interval. Fresh data arrives through mutations and realtime updates instead.
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
