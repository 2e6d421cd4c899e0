import { CircleCheck, Scale, Trophy } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { focusMainHeading } from '#client/lib/focus-recovery.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import type { SubmittedResults } from './results-modal.tsx';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-1.5">
      <dt className="text-sm text-slate-300">{label}</dt>
      <dd className="font-display text-base font-bold text-white tabular-nums">{value}</dd>
    </div>
  );
}

function playerName(challenge: ChallengeView, id: number): string {
  if (id === challenge.creatorId) return challenge.creator.username;
  return challenge.acceptor?.username ?? 'Your opponent';
}

/**
 * CHALLENGE RESULTS SUBMITTED (docs/product.md#screens): the outcome for this viewer and what
 * happens next.
 */
export function ResultsModal({
  results,
  onClose,
}: {
  results: SubmittedResults;
  onClose: () => void;
}) {
  const { challenge, viewerId, creatorScore, acceptorScore, result } = results;
  const disputed = result.status === 'disputed';
  const viewerWon = !disputed && result.winner.id === viewerId;

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        // The button that sent the results left with the finished match: the page's heading
        // takes focus instead of the page body.
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusMainHeading();
        }}
      >
        <DialogHeader>
          <DialogTitle>CHALLENGE RESULTS SUBMITTED</DialogTitle>
          <DialogDescription>
            {challenge.game}: {challenge.creator.username} {creatorScore} – {acceptorScore}{' '}
            {challenge.acceptor?.username ?? 'opponent'}
          </DialogDescription>
        </DialogHeader>

        {disputed && (
          <section className="rounded-lg border border-amber-400/50 bg-amber-400/10 p-4">
            <h3 className="flex items-center gap-2 font-display text-sm font-bold tracking-widest text-amber-200">
              <Scale aria-hidden="true" className="size-5" />
              UNDER ADMIN REVIEW
            </h3>
            <p className="mt-2 text-sm text-amber-50">
              You reported a problem, so this result is under admin review. The stakes stay in
              escrow until an admin decides.
            </p>
          </section>
        )}

        {viewerWon && (
          <section className="rounded-lg border border-emerald-400/50 bg-emerald-400/10 p-4">
            <h3 className="flex items-center gap-2 font-display text-xl font-black tracking-widest text-emerald-300">
              <Trophy aria-hidden="true" className="size-6" />
              YOU WON
            </h3>
            <dl className="mt-3 divide-y divide-emerald-400/20">
              <Figure label="Prize" value={formatDollars(result.winner.prize)} />
              {result.winner.deduction > 0 && (
                <Figure label="Fee (5%)" value={`-${formatDollars(result.winner.deduction)}`} />
              )}
              <Figure label="New balance" value={formatDollars(result.updatedWinnerInfo.balance)} />
            </dl>
            {result.review && (
              <p className="mt-2 text-sm text-emerald-50">
                {formatDollars(result.review.held)} held for review until{' '}
                {formatDateTime(result.review.until)}
              </p>
            )}
          </section>
        )}

        {!disputed && !viewerWon && (
          <section className="rounded-lg border border-ink-600 bg-ink-900/70 p-4">
            <h3 className="font-display text-sm font-bold tracking-widest text-slate-100">
              {playerName(challenge, result.winner.id).toUpperCase()} WON THIS MATCH
            </h3>
            <p className="mt-2 text-sm text-slate-300">
              The prize of {formatDollars(result.winner.prize)} goes to your opponent. Better luck
              in the next one.
            </p>
          </section>
        )}

        <section className="mt-5">
          <h3 className="font-display text-xs font-bold tracking-widest text-accent">NEXT STEPS</h3>
          <ol className="mt-3 space-y-2 text-sm text-slate-200">
            <li className="flex gap-2">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
              An admin reviews the scores and the screenshot.
            </li>
            <li className="flex gap-2">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
              The winner is credited with the prize, minus the 5% fee.
            </li>
            <li className="flex gap-2">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent" />
              Both players are emailed the result.
            </li>
          </ol>
        </section>

        <DialogClose asChild>
          <Button className="mt-6 w-full">GOT IT</Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
