import type { ReactNode } from 'react';
import { Eye } from 'lucide-react';
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
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { playerName } from '../lib/challenge-display.ts';
import { Fact, Missing } from './facts.tsx';
import { ScreenshotImage } from './screenshot-view.tsx';

type Player = ChallengeView['creator'];

function orMissing(value: ReactNode | null | undefined, missing = 'N/A'): ReactNode {
  return value === null || value === undefined || value === '' ? (
    <Missing>{missing}</Missing>
  ) : (
    value
  );
}

function PartySection({ title, player }: { title: string; player: Player | null }) {
  return (
    <section aria-label={title} className="rounded-lg border border-ink-700 bg-ink-900/60 p-4">
      <h3 className="mb-3 font-display text-xs font-bold tracking-widest text-accent uppercase">
        {title}: {playerName(player)}
      </h3>
      <dl className="grid grid-cols-2 gap-3">
        <Fact label="ID">{orMissing(player?.id)}</Fact>
        <Fact label="Balance">
          {orMissing(player?.balance === undefined ? null : formatDollars(player.balance))}
        </Fact>
        <Fact label="Email" wide>
          {orMissing(player?.email, 'Not provided')}
        </Fact>
      </dl>
    </section>
  );
}

/**
 * The product's View Details (docs/product.md#screens): both parties, every field of the match, and
 * the screenshot.
 */
export function ChallengeDetailsDialog({ challenge }: { challenge: ChallengeView }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <Eye aria-hidden="true" />
          VIEW DETAILS
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl!">
        <DialogHeader>
          <DialogTitle>Challenge #{challenge.id}</DialogTitle>
          <DialogDescription>
            {challenge.game}: {playerName(challenge.creator)} vs {playerName(challenge.acceptor)}
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-5">
          <div className="grid gap-3 sm:grid-cols-2">
            <PartySection title="Creator" player={challenge.creator} />
            <PartySection title="Acceptor" player={challenge.acceptor} />
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
            <Fact label="Game">{challenge.game}</Fact>
            <Fact label="Mode">{orMissing(challenge.mode)}</Fact>
            <Fact label="Platform">{orMissing(challenge.platform)}</Fact>
            <Fact label="Prize">{formatDollars(challenge.prize)}</Fact>
            <Fact label="Amount">{formatDollars(challenge.amount)}</Fact>
            <Fact label="Fee">
              {orMissing(challenge.deduction === null ? null : formatDollars(challenge.deduction))}
            </Fact>
            <Fact label="Status">{challenge.status.toUpperCase()}</Fact>
            <Fact label="Winner ID">{orMissing(challenge.winnerId)}</Fact>
            <Fact label="Creator Score">{orMissing(challenge.creatorScore)}</Fact>
            <Fact label="Acceptor Score">{orMissing(challenge.acceptorScore)}</Fact>
            <Fact label="Created">{formatDateTime(challenge.createdAt)}</Fact>
            <Fact label="Finalized">
              {orMissing(challenge.completedAt && formatDateTime(challenge.completedAt))}
            </Fact>
            <Fact label="Submission Notes" wide>
              {orMissing(challenge.notes, 'None')}
            </Fact>
          </dl>
          <section aria-label="Screenshot" className="space-y-2">
            <h3 className="font-display text-xs font-bold tracking-widest text-accent uppercase">
              Screenshot
            </h3>
            <ScreenshotImage
              screenshot={challenge.winnerScreenshot}
              alt={`Result screenshot of challenge #${challenge.id}`}
            />
          </section>
        </div>
      </DialogContent>
    </Dialog>
  );
}
