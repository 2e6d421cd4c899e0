import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GameSuggestion } from '#shared/contracts/players.ts';
import { getJson, loadedOnce } from '#client/lib/api-client.ts';
import { useAfterFirstPaint } from '#client/lib/first-paint.ts';

const loadSuggestionsSchema = loadedOnce(
  async () => (await import('#shared/contracts/players.ts')).gameSuggestionsSchema,
);

/** The games players name on challenges, most named first, containing `search` if given. */
export function getGameSuggestions(
  search: string,
  signal?: AbortSignal,
): Promise<GameSuggestion[]> {
  const query = search.trim() ? `?${new URLSearchParams({ q: search.trim() }).toString()}` : '';
  return getJson(`/api/games${query}`, loadSuggestionsSchema, signal);
}

export function gameSuggestionsQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['games', search.trim().toLowerCase()],
    queryFn: ({ signal }) => getGameSuggestions(search, signal),
  });
}

/** The suggestions keep showing the last answer while the next one is on its way. */
export function useGameSuggestions(search: string) {
  return useQuery({
    ...gameSuggestionsQueryOptions(search),
    placeholderData: keepPreviousData,
    enabled: useAfterFirstPaint(),
  });
}
