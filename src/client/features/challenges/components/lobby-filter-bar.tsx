import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Search, X } from 'lucide-react';
import { CONSOLES, type ChallengeSort } from '#shared/lobby.ts';
import { Button } from '#client/components/ui/button.tsx';
import { inputClasses } from '#client/components/ui/input-classes.ts';
import { cn } from '#client/lib/cn.ts';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { useGameSuggestions } from '../api/get-game-suggestions.ts';
import {
  hasLobbyFilters,
  NO_FILTERS,
  stakeRangeError,
  writeLobbyFilters,
  type LobbyFilters,
} from '../lib/lobby-filters.ts';

/** How long typing pauses before a search or a stake is asked for. */
export const FILTER_TYPING_PAUSE_MS = 300;

export const SORT_LABELS: Record<ChallengeSort, string> = {
  newest: 'Newest first',
  amount_desc: 'Highest stake',
  amount_asc: 'Lowest stake',
};

function FilterField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      {/* Plain labels and inputs: the ui ones belong to the forms' chunk (see inputClasses). */}
      <label
        htmlFor={id}
        className="mb-1.5 block text-xs font-medium tracking-wider text-slate-300 uppercase"
      >
        {label}
      </label>
      {children}
    </div>
  );
}

export interface LobbyFilterBarProps {
  filters: LobbyFilters;
  onChange: (next: LobbyFilters) => void;
}

/**
 * The lobby's filter bar (docs/challenges.md#finding-an-opponent): a game search that suggests the
 * games players name, a console, a stake range and an order. Lists change as soon as a choice is
 * made, and a short pause after typing; the address keeps the choice (see useLobbyFilters).
 */
export function LobbyFilterBar({ filters, onChange }: LobbyFilterBarProps) {
  const id = useId();
  const gameInput = useRef<HTMLInputElement>(null);
  // What is typed, ahead of the address by one pause. A change of the address from elsewhere
  // (Clear filters, the back button) replaces it; one this bar made does not, so a space just
  // typed at the end of a search is not trimmed away under the cursor.
  const [draft, setDraft] = useState(filters);
  const committed = writeLobbyFilters(filters);
  const [lastCommitted, setLastCommitted] = useState(committed);
  if (committed !== lastCommitted) {
    setLastCommitted(committed);
    setDraft(filters);
  }

  const commit = (next: LobbyFilters) => {
    setLastCommitted(writeLobbyFilters(next));
    onChange(next);
  };

  const stakeError = stakeRangeError(draft);
  useEffect(() => {
    if (stakeError) return;
    const typed = {
      ...filters,
      game: draft.game,
      minAmount: draft.minAmount,
      maxAmount: draft.maxAmount,
    };
    if (writeLobbyFilters(typed) === writeLobbyFilters(filters)) return;
    const timer = setTimeout(() => {
      setLastCommitted(writeLobbyFilters(typed));
      onChange(typed);
    }, FILTER_TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [draft.game, draft.minAmount, draft.maxAmount, stakeError, filters, onChange]);

  const suggestions = useGameSuggestions(filters.game);
  const choose = (change: Partial<LobbyFilters>) => {
    const next = { ...draft, ...change };
    setDraft(next);
    commit(
      stakeError ? { ...next, minAmount: filters.minAmount, maxAmount: filters.maxAmount } : next,
    );
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    commit(NO_FILTERS);
    gameInput.current?.focus();
  };
  const errorId = `${id}-stake-error`;

  return (
    <section
      aria-label="Filter challenges"
      className="mb-6 rounded-xl border border-ink-700 bg-ink-850/80 p-4"
    >
      <form
        role="search"
        aria-label="Challenges"
        onSubmit={(event) => event.preventDefault()}
        className="grid grid-cols-2 gap-3 md:grid-cols-6 lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto] lg:items-end"
      >
        <FilterField
          id={`${id}-game`}
          label="Game"
          className="col-span-2 md:col-span-3 lg:col-span-1"
        >
          <div className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
            />
            <input
              ref={gameInput}
              id={`${id}-game`}
              type="search"
              list={`${id}-games`}
              autoComplete="off"
              placeholder="Search games"
              maxLength={80}
              value={draft.game}
              onChange={(event) => setDraft({ ...draft, game: event.target.value })}
              className={cn(inputClasses, 'pl-9')}
            />
          </div>
          <datalist id={`${id}-games`}>
            {suggestions.data?.map((game) => (
              <option key={game.name} value={game.name} />
            ))}
          </datalist>
        </FilterField>
        <FilterField
          id={`${id}-console`}
          label="Console"
          className="col-span-2 md:col-span-3 lg:col-span-1"
        >
          <NativeSelect
            id={`${id}-console`}
            value={draft.console}
            onChange={(event) => choose({ console: event.target.value })}
          >
            <option value="">All consoles</option>
            {CONSOLES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        </FilterField>
        <FilterField id={`${id}-min`} label="Min stake ($)" className="md:col-span-2 lg:col-span-1">
          <input
            id={`${id}-min`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="Any"
            className={inputClasses}
            value={draft.minAmount}
            aria-invalid={stakeError?.field === 'minAmount'}
            aria-describedby={stakeError?.field === 'minAmount' ? errorId : undefined}
            onChange={(event) => setDraft({ ...draft, minAmount: event.target.value })}
          />
        </FilterField>
        <FilterField id={`${id}-max`} label="Max stake ($)" className="md:col-span-2 lg:col-span-1">
          <input
            id={`${id}-max`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="Any"
            className={inputClasses}
            value={draft.maxAmount}
            aria-invalid={stakeError?.field === 'maxAmount'}
            aria-describedby={stakeError?.field === 'maxAmount' ? errorId : undefined}
            onChange={(event) => setDraft({ ...draft, maxAmount: event.target.value })}
          />
        </FilterField>
        <FilterField
          id={`${id}-sort`}
          label="Sort"
          className="col-span-2 md:col-span-2 lg:col-span-1"
        >
          <NativeSelect
            id={`${id}-sort`}
            value={draft.sort}
            onChange={(event) => choose({ sort: event.target.value as ChallengeSort })}
          >
            {(Object.keys(SORT_LABELS) as ChallengeSort[]).map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </NativeSelect>
        </FilterField>
        {hasLobbyFilters(filters) || hasLobbyFilters(draft) ? (
          <Button
            variant="ghost"
            onClick={clear}
            className="col-span-2 md:col-span-6 lg:col-span-1"
          >
            <X aria-hidden="true" />
            Clear filters
          </Button>
        ) : null}
      </form>
      {stakeError && (
        <div className="mt-2">
          <p id={errorId} className="text-sm font-medium text-red-400">
            {stakeError.message}
          </p>
        </div>
      )}
    </section>
  );
}
