import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlayerProfile } from '#shared/contracts/players.ts';
import { playerQueryKey } from '#shared/page-data.ts';
import { ApiError, getJson, loadedOnce } from '#client/lib/api-client.ts';

export const loadPlayerSchema = loadedOnce(
  async () => (await import('#shared/contracts/players.ts')).playerProfileSchema,
);

/** A player's public page, or null when there is no such player (or the account was closed). */
export async function getPlayer(
  username: string,
  signal?: AbortSignal,
): Promise<PlayerProfile | null> {
  try {
    return await getJson(`/api/players/${encodeURIComponent(username)}`, loadPlayerSchema, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function playerQueryOptions(username: string) {
  return queryOptions({
    queryKey: playerQueryKey(username),
    queryFn: ({ signal }) => getPlayer(username, signal),
  });
}

export function usePlayer(username: string) {
  return useQuery(playerQueryOptions(username));
}
