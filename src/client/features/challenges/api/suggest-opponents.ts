import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { OPPONENT_SEARCH_MIN, opponentSuggestionsSchema } from '#shared/contracts/challenges.ts';
import { getJson } from '#client/lib/api-client.ts';

/**
 * The players a direct challenge can go to whose username starts with what was typed
 * (docs/challenges.md#finding-an-opponent); nothing is asked before the minimum number of letters.
 */
export function useOpponentSuggestions(typed: string | undefined) {
  const search = (typed ?? '').trim();
  return useQuery({
    queryKey: ['players', 'suggestions', search.toLowerCase()],
    queryFn: ({ signal }) =>
      getJson(
        `/api/players?search=${encodeURIComponent(search)}`,
        opponentSuggestionsSchema,
        signal,
      ),
    enabled: search.length >= OPPONENT_SEARCH_MIN,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
