import type { ReactNode } from 'react';
import { ChevronsDown, TriangleAlert, type LucideIcon } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

/** The parts of an infinite query a paged list needs. */
export interface PagedQuery {
  isPending: boolean;
  /** Set once the first page arrived: a failed refetch keeps showing what was loaded. */
  hasData: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

export interface PagedListProps<T> {
  query: PagedQuery;
  items: readonly T[];
  /** Names the list for assistive technology, and its loading spinner. */
  label: string;
  empty: { icon: LucideIcon; title: string; description?: string };
  getKey: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  moreLabel?: string;
}

/** A dashboard list: spinner, error, empty text, the items, and "Load more" for older pages. */
export function PagedList<T>({
  query,
  items,
  label,
  empty,
  getKey,
  renderItem,
  moreLabel = 'Load more',
}: PagedListProps<T>) {
  if (query.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label={`Loading ${label.toLowerCase()}`} />
      </div>
    );
  }
  if (!query.hasData) {
    return (
      <EmptyState
        icon={TriangleAlert}
        title={`COULD NOT LOAD ${label.toUpperCase()}`}
        description="Please refresh the page to try again."
      />
    );
  }
  if (items.length === 0) return <EmptyState {...empty} />;
  return (
    <div className="space-y-5">
      <ul aria-label={label} className="space-y-3">
        {items.map((item) => (
          <li key={getKey(item)} className="min-w-0">
            {renderItem(item)}
          </li>
        ))}
      </ul>
      {query.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="outline"
            size="sm"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            <ChevronsDown aria-hidden="true" />
            {query.isFetchingNextPage ? 'Loading...' : moreLabel}
          </Button>
        </div>
      )}
      {query.isFetchNextPageError && (
        <p role="alert" className="text-center text-sm text-red-400">
          The next page could not be loaded. Please try again.
        </p>
      )}
    </div>
  );
}

/** Adapts a TanStack infinite query to {@link PagedQuery}. */
export function pagedQuery(query: Omit<PagedQuery, 'hasData'> & { data: unknown }): PagedQuery {
  return {
    isPending: query.isPending,
    hasData: query.data !== undefined,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    isFetchNextPageError: query.isFetchNextPageError,
    fetchNextPage: query.fetchNextPage,
  };
}
