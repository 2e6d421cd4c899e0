import { createContext, lazy, Suspense, use, useState, type ReactNode } from 'react';
import type { ChallengeView, SubmitScoresResponse } from '#shared/contracts/challenges.ts';

// The modal itself (a dialog and its focus and scroll handling) loads the first time results
// are shown, not with the page shell every visitor downloads.
const ResultsModal = lazy(() =>
  import('./results-dialog.tsx').then((module) => ({ default: module.ResultsModal })),
);

export interface SubmittedResults {
  challenge: ChallengeView;
  viewerId: number;
  creatorScore: number;
  acceptorScore: number;
  result: SubmitScoresResponse;
}

const ShowResultsContext = createContext<((results: SubmittedResults) => void) | null>(null);

/**
 * Holds the last submission's outcome above the pages. The card that sent it leaves the Active
 * list as soon as the challenge completes, and the modal must outlive it.
 */
export function SubmittedResultsProvider({ children }: { children: ReactNode }) {
  const [results, setResults] = useState<SubmittedResults | null>(null);
  return (
    <ShowResultsContext value={setResults}>
      {children}
      {results && (
        <Suspense fallback={null}>
          <ResultsModal results={results} onClose={() => setResults(null)} />
        </Suspense>
      )}
    </ShowResultsContext>
  );
}

export function useShowSubmittedResults(): (results: SubmittedResults) => void {
  const show = use(ShowResultsContext);
  if (!show) throw new Error('useShowSubmittedResults needs a SubmittedResultsProvider above it');
  return show;
}
