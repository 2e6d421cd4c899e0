import { lazy, Suspense } from 'react';
import { Spinner } from '#client/components/ui/spinner.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';

// The form, its validation and its selects load when the dialog first opens: the home page
// shows without them.
const CreateChallengeForm = lazy(() =>
  import('./create-challenge-form.tsx').then((module) => ({ default: module.CreateChallengeForm })),
);

export interface CreateChallengeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when it closes: the dialog has no trigger of its own to return it to. */
  onCloseAutoFocus: (event: Event) => void;
  defaultPhoneNumber?: string | null;
  /** The player's available balance, which the form compares the stake with. */
  available?: number;
  /**
   * Quick Match: the same dialog asking for the terms only
   * (docs/challenges.md#finding-an-opponent).
   */
  intent?: 'create' | 'quick-match';
}

const COPY = {
  create: {
    title: 'Create Challenge',
    description: 'Your stake is held in escrow until an opponent accepts and the match is settled.',
  },
  'quick-match': {
    title: 'Quick Match',
    description:
      'You meet the first player who wants the same game, console and stake: an open challenge on those terms is accepted at once, or yours waits for the next player who asks.',
  },
} as const;

/**
 * Controlled from outside because the home page opens it from two places (the banner and the
 * empty Available tab).
 */
export function CreateChallengeDialog({
  open,
  onOpenChange,
  onCloseAutoFocus,
  defaultPhoneNumber,
  available,
  intent = 'create',
}: CreateChallengeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{COPY[intent].title}</DialogTitle>
          <DialogDescription>{COPY[intent].description}</DialogDescription>
        </DialogHeader>
        <Suspense fallback={<Spinner className="mx-auto my-8" />}>
          <CreateChallengeForm
            onCreated={() => onOpenChange(false)}
            defaultPhoneNumber={defaultPhoneNumber}
            available={available}
            intent={intent}
          />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
