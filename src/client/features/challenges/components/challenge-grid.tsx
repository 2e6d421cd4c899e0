import type { ReactNode } from 'react';
import { ChevronsDown, TriangleAlert } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { pickFocusTarget, useFocusRecovery } from '#client/lib/focus-recovery.ts';
import { useChallenges, type ChallengeListFilter } from '../api/get-challenges.ts';
import { ChallengeCard } from './challenge-card.tsx';

export interface ChallengeGridProps {
  filter: ChallengeListFilter;
  viewerId: number;
  /** Names the list for assistive technology ("Available challenges"). */
  label: string;
  /** Shown when the list is empty: one of the SPEC's empty texts. */
  empty: ReactNode;
  /** Shown when the list cannot be loaded. */
  error?: ReactNode;
  /** At most two columns, for a grid that shares the page with a sidebar. */
  narrow?: boolean;
}

const DEFAULT_ERROR = (
  <EmptyState
    icon={TriangleAlert}
    title="COULD NOT LOAD CHALLENGES"
    description="Please refresh the page to try again."
  />
);

/**
 * A grid of challenge cards, a page at a time, with "Load more" while pages come back full. When
 * a card with the keyboard focus leaves the list (accepted, say) focus moves to the card that took
 * its place, or to what the list shows instead, never to the page body.
 */
export function ChallengeGrid({
  filter,
  viewerId,
  label,
  empty,
  error,
  narrow = false,
}: ChallengeGridProps) {
  const list = useChallenges(filter);
  const focusRecovery = useFocusRecovery<HTMLDivElement>(pickFocusTarget);

  return (
    <div {...focusRecovery} tabIndex={-1} className="outline-offset-4">
      <GridBody
        list={list}
        viewerId={viewerId}
        label={label}
        empty={empty}
        error={error}
        narrow={narrow}
      />
    </div>
  );
}

function GridBody({
  list,
  viewerId,
  label,
  empty,
  error,
  narrow,
}: Omit<ChallengeGridProps, 'filter'> & { list: ReturnType<typeof useChallenges> }) {
  if (list.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label={`Loading ${label.toLowerCase()}`} />
      </div>
    );
  }
  // A failed refetch keeps showing what was loaded; only a list that never loaded is an error.
  if (!list.data) return error ?? DEFAULT_ERROR;

  const challenges = list.data.pages.flat();
  if (challenges.length === 0) return empty;

  return (
    <div className="space-y-6">
      <ul
        aria-label={label}
        className={cn('grid gap-4 sm:grid-cols-2', !narrow && 'lg:grid-cols-3')}
      >
        {challenges.map((challenge) => (
          <li key={challenge.id} data-focus-key={challenge.id} className="min-w-0">
            <ChallengeCard challenge={challenge} viewerId={viewerId} />
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="outline"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            <ChevronsDown aria-hidden="true" />
            {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
      {list.isFetchNextPageError && (
        <p role="alert" className="text-center text-sm text-red-400">
          The next page could not be loaded. Please try again.
        </p>
      )}
    </div>
  );
}
