import { useState } from 'react';
import { Ban } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { useCancelChallenge } from '../api/cancel-challenge.ts';

/** The creator withdraws an open challenge, after confirming: the stake comes back. */
export function CancelChallengeButton({ challenge }: { challenge: ChallengeView }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelChallenge();
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" className="w-full text-red-300 hover:text-red-200">
          <Ban aria-hidden="true" />
          CANCEL CHALLENGE
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Cancel this challenge?</AlertDialogTitle>
        <AlertDialogDescription>
          {challenge.game} for {formatDollars(challenge.amount)} will be taken down and your stake
          returned to your balance.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">KEEP CHALLENGE</Button>
          </AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate(challenge.id, { onSuccess: () => setOpen(false) })}
          >
            {cancel.isPending ? 'CANCELLING...' : 'YES, CANCEL IT'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
