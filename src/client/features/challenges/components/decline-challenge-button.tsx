import { useState } from 'react';
import { X } from 'lucide-react';
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
import { useDeclineChallenge } from '../api/decline-challenge.ts';

/** The invited player turns a direct challenge down, after confirming. */
export function DeclineChallengeButton({ challenge }: { challenge: ChallengeView }) {
  const [open, setOpen] = useState(false);
  const decline = useDeclineChallenge();
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" className="w-full text-red-300 hover:text-red-200">
          <X aria-hidden="true" />
          DECLINE
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Decline this challenge?</AlertDialogTitle>
        <AlertDialogDescription>
          {challenge.creator.username}&apos;s challenge ({challenge.game} for{' '}
          {formatDollars(challenge.amount)}) will be cancelled and their stake returned.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">KEEP IT</Button>
          </AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={decline.isPending}
            onClick={() => decline.mutate(challenge.id, { onSuccess: () => setOpen(false) })}
          >
            {decline.isPending ? 'DECLINING...' : 'YES, DECLINE IT'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
