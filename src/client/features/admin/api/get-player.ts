import { queryOptions, useQuery } from '@tanstack/react-query';
import { playerPageSchema, type PlayerPage } from '#shared/contracts/insights.ts';
import { getJson } from '#client/lib/api-client.ts';

/** Under `admin`, so that every admin action that refreshes the admin views refreshes it too. */
export const playersQueryKey = ['admin', 'player'] as const;
export const playerQueryKey = (id: number) => [...playersQueryKey, id] as const;

/** One player whole, for the admin's player page (docs/operator-tools.md). */
export function getPlayer(id: number, signal?: AbortSignal): Promise<PlayerPage> {
  return getJson(`/api/admin/players/${id}`, playerPageSchema, signal);
}

export function playerQueryOptions(id: number) {
  return queryOptions({
    queryKey: playerQueryKey(id),
    queryFn: ({ signal }) => getPlayer(id, signal),
  });
}

export function usePlayer(id: number) {
  return useQuery(playerQueryOptions(id));
}
