import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { payoutSchema, type PayoutView } from '#shared/contracts/payouts.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

/** One page of the history; "Load more" appears while pages come back full. */
export const PAYOUT_PAGE_SIZE = 20;

/** The signed-in player's own payouts. Realtime balance changes invalidate it too. */
export const payoutsQueryKey = ['payouts'] as const;

const payoutListSchema = z.array(payoutSchema);

/** One page of the player's payouts, newest first; `before` is the last id of the previous page. */
export function getPayouts(
  before: number | undefined,
  signal?: AbortSignal,
): Promise<PayoutView[]> {
  const params = new URLSearchParams({ limit: String(PAYOUT_PAGE_SIZE) });
  if (before !== undefined) params.set('before', String(before));
  return getJson(`/api/payouts?${params.toString()}`, payoutListSchema, signal);
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
