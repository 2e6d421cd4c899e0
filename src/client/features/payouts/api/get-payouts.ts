import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { PayoutView } from '#shared/contracts/payouts.ts';
import { getJson, loadedOnce } from '#client/lib/api-client.ts';

/** One page of the history; "Load more" appears while pages come back full. */
export const PAYOUT_PAGE_SIZE = 20;

/** The signed-in player's own payouts. Realtime balance changes invalidate it too. */
export const payoutsQueryKey = ['payouts'] as const;

/**
 * Loaded with the first request: the account socket, which every signed-in page opens just after
 * its first paint, needs only this module's key, not the payouts' contracts.
 */
const loadPayoutListSchema = loadedOnce(async () =>
  (await import('#shared/contracts/payouts.ts')).payoutSchema.array(),
);

/** One page of the player's payouts, newest first; `before` is the last id of the previous page. */
export function getPayouts(
  before: number | undefined,
  signal?: AbortSignal,
): Promise<PayoutView[]> {
  const params = new URLSearchParams({ limit: String(PAYOUT_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/payouts?${params.toString()}`, loadPayoutListSchema, signal);
}

export function payoutsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: payoutsQueryKey,
    queryFn: ({ pageParam, signal }) => getPayouts(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage) =>
      lastPage.length === PAYOUT_PAGE_SIZE ? lastPage.at(-1)?.id : undefined,
  });
}

export function usePayouts() {
  return useInfiniteQuery(payoutsQueryOptions());
}
