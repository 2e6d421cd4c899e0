import { lazy, Suspense, useState } from 'react';
import { Send } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';

// The form and its validation load when a player first opens the dialog: the cards and pages
// that show the button do not carry them.
const SubmitResultsForm = lazy(() =>
  import('./submit-results-form.tsx').then((module) => ({ default: module.SubmitResultsForm })),
);

export interface SubmitResultsDialogProps {
  challenge: ChallengeView;
  viewerId: number;
  /** SUBMIT SCORES on a card, SUBMIT RESULTS on the detail page. */
  triggerLabel: string;
}

/**
 * The product's Submit Results dialog (docs/product.md#screens), for the two players of an accepted
 * challenge.
 */
export function SubmitResultsDialog({
  challenge,
  viewerId,
  triggerLabel,
}: SubmitResultsDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button className="w-full">
          <Send aria-hidden="true" />
          {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Submit Results</DialogTitle>
          <DialogDescription>
            {challenge.game} for {challenge.creator.username} vs{' '}
            {challenge.acceptor?.username ?? 'opponent'}. Enter the final score of the match.
          </DialogDescription>
        </DialogHeader>
        <Suspense fallback={<Spinner className="mx-auto my-8" />}>
          <SubmitResultsForm
            challenge={challenge}
            viewerId={viewerId}
            onSubmitted={() => setOpen(false)}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
