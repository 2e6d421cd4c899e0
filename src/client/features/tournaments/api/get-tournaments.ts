import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TournamentDetail, TournamentSummary } from '#shared/contracts/tournaments.ts';
import { tournamentListQueryKey, tournamentsQueryKey } from '#shared/page-data.ts';
import { ApiError, getJson, loadedOnce } from '#client/lib/api-client.ts';

export const loadTournamentListSchema = loadedOnce(
  async () => (await import('#shared/contracts/tournaments.ts')).tournamentListSchema,
);
export const loadTournamentSchema = loadedOnce(
  async () => (await import('#shared/contracts/tournaments.ts')).tournamentDetailSchema,
);

export function tournamentQueryKey(id: number) {
  return [...tournamentsQueryKey, 'detail', id] as const;
}

export function tournamentListQueryOptions() {
  return queryOptions({
    queryKey: tournamentListQueryKey,
    queryFn: ({ signal }): Promise<TournamentSummary[]> =>
      getJson('/api/tournaments', loadTournamentListSchema, signal),
  });
}

export function useTournaments() {
  return useQuery(tournamentListQueryOptions());
}

/** The tournament, or null when there is none with this id (404). */
export async function getTournament(
  id: number,
  signal?: AbortSignal,
): Promise<TournamentDetail | null> {
  try {
    return await getJson(`/api/tournaments/${id}`, loadTournamentSchema, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw new Error('Failed to fetch tournament', { cause: error });
  }
}

export function useTournament(id: number) {
  return useQuery({
    queryKey: tournamentQueryKey(id),
    queryFn: ({ signal }) => getTournament(id, signal),
  });
}
