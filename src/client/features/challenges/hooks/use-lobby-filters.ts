import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { readLobbyFilters, writeLobbyFilters, type LobbyFilters } from '../lib/lobby-filters.ts';

/**
 * The lobby's filters, kept in the address's query string: a shared or reloaded link opens the
 * same view. Changes replace the history entry, so typing a search does not fill the back button.
 */
export function useLobbyFilters(): [LobbyFilters, (next: LobbyFilters) => void] {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const filters = useMemo(() => readLobbyFilters(search), [search]);
  const setFilters = useCallback(
    (next: LobbyFilters) => {
      const query = writeLobbyFilters(next);
      navigate(query ? `${path}?${query}` : path, { replace: true });
    },
    [navigate, path],
  );
  return [filters, setFilters];
}
