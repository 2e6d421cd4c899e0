import {
  CHALLENGE_SORTS,
  CONSOLES,
  FILTER_MESSAGES,
  GAME_MAX,
  type ChallengeSort,
} from '#shared/lobby.ts';
import { parseAmount } from '#shared/money.ts';

/**
 * The lobby's filters (docs/challenges.md#finding-an-opponent) as the address bar keeps them:
 * `?game=fc&console=Xbox& minAmount=10&maxAmount=25&sort=amount_desc`. A shared link opens the same
 * view; a value the lobby does not know (an old link, a typo) is left out rather than refused.
 */
export interface LobbyFilters {
  game: string;
  console: string;
  minAmount: string;
  maxAmount: string;
  sort: ChallengeSort;
}

export const NO_FILTERS: LobbyFilters = {
  game: '',
  console: '',
  minAmount: '',
  maxAmount: '',
  sort: 'newest',
};

const isConsole = (value: string) => (CONSOLES as readonly string[]).includes(value);
const isSort = (value: string): value is ChallengeSort =>
  (CHALLENGE_SORTS as readonly string[]).includes(value);

/** An amount the API takes: dollars, at most two decimals, not negative. */
export function isAmount(value: string): boolean {
  const parsed = parseAmount(value);
  return parsed.ok && parsed.cents >= 0n;
}

/** The filters in a query string (with or without its `?`). */
export function readLobbyFilters(search: string): LobbyFilters {
  const params = new URLSearchParams(search);
  const text = (name: string) => params.get(name)?.trim() ?? '';
  const amount = (name: string) => (isAmount(text(name)) ? text(name) : '');
  const sort = text('sort');
  const filters: LobbyFilters = {
    game: text('game').slice(0, GAME_MAX),
    console: isConsole(text('console')) ? text('console') : '',
    minAmount: amount('minAmount'),
    maxAmount: amount('maxAmount'),
    sort: isSort(sort) ? sort : 'newest',
  };
  // A range upside down finds nothing: the link keeps its lower bound.
  return stakeRangeError(filters) ? { ...filters, maxAmount: '' } : filters;
}

/** The query string of the filters: only those set, so the lobby without filters is plain `/`. */
export function writeLobbyFilters(filters: LobbyFilters): string {
  const params = new URLSearchParams();
  if (filters.game.trim()) params.set('game', filters.game.trim());
  if (filters.console) params.set('console', filters.console);
  if (filters.minAmount.trim()) params.set('minAmount', filters.minAmount.trim());
  if (filters.maxAmount.trim()) params.set('maxAmount', filters.maxAmount.trim());
  if (filters.sort !== 'newest') params.set('sort', filters.sort);
  return params.toString();
}

export function hasLobbyFilters(filters: LobbyFilters): boolean {
  return writeLobbyFilters(filters) !== '';
}

/** Why the stake range cannot be asked for, in the API's words; null when it can. */
export function stakeRangeError(filters: Pick<LobbyFilters, 'minAmount' | 'maxAmount'>): {
  field: 'minAmount' | 'maxAmount';
  message: string;
} | null {
  const min = filters.minAmount.trim();
  const max = filters.maxAmount.trim();
  if (min && !isAmount(min)) return { field: 'minAmount', message: FILTER_MESSAGES.minAmount };
  if (max && !isAmount(max)) return { field: 'maxAmount', message: FILTER_MESSAGES.maxAmount };
  const minParsed = parseAmount(min);
  const maxParsed = parseAmount(max);
  if (min && max && minParsed.ok && maxParsed.ok && minParsed.cents > maxParsed.cents) {
    return { field: 'maxAmount', message: FILTER_MESSAGES.range };
  }
  return null;
}
