import { useId, useState } from 'react';
import { Link } from 'wouter';
import { Gavel, Trophy } from 'lucide-react';
import type { AdminTournamentDispute } from '#shared/contracts/tournaments.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { EvidenceBySide } from '#client/features/challenges/components/fair-play-panels.tsx';
import { roundName } from '#client/features/tournaments/components/bracket.tsx';
import { useTournamentDisputes } from '../api/get-tournament-disputes.ts';
import { useResolveTournamentMatch } from '../api/resolve-tournament-match.ts';
import { Fact, Missing, rowClasses } from './facts.tsx';
import { ScreenshotLink } from './screenshot-view.tsx';

function nameOf(dispute: AdminTournamentDispute, userId: number | null): string | null {
  if (userId === dispute.playerA.id) return dispute.playerA.username;
  if (userId === dispute.playerB.id) return dispute.playerB.username;
  return null;
}

/** The admin picks who goes on, through the tournament's own decision route; it is final. */
function DecideMatchDialog({ dispute }: { dispute: AdminTournamentDispute }) {
  const [open, setOpen] = useState(false);
  const resolve = useResolveTournamentMatch();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Gavel aria-hidden="true" />
          DECIDE
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Decide Tournament Match</DialogTitle>
          <DialogDescription>
            Tournament #{dispute.tournamentId}, {roundName(dispute.round, dispute.rounds)}:{' '}
            {dispute.playerA.username} vs {dispute.playerB.username}. The player you choose goes on
            to the next round; the decision is final.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-wrap gap-3">
          {[dispute.playerA, dispute.playerB].map((player) => (
            <Button
              key={player.id}
              disabled={resolve.isPending}
              onClick={() =>
                resolve.mutate(
                  {
                    tournamentId: dispute.tournamentId,
                    matchId: dispute.matchId,
                    winnerId: player.id,
                    winnerName: player.username,
                  },
                  { onSuccess: () => setOpen(false) },
                )
              }
            >
              {player.username} GOES ON
            </Button>
          ))}
          <DialogClose asChild>
            <Button variant="outline">CANCEL</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  );
}

function TournamentDisputeRow({ dispute }: { dispute: AdminTournamentDispute }) {
  const titleId = useId();
  const claimant = nameOf(dispute, dispute.noShowClaimedBy);
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="font-display text-base font-bold tracking-wide text-white">
            {dispute.game}: tournament match
          </h3>
          <p className="text-xs text-slate-400">
            Tournament #{dispute.tournamentId} · {roundName(dispute.round, dispute.rounds)} ·{' '}
            {dispute.console}
          </p>
        </div>
        <Badge variant="neutral">
          <Trophy aria-hidden="true" className="size-3" />
          TOURNAMENT MATCH
        </Badge>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Fact label="First player">{dispute.playerA.username}</Fact>
        <Fact label="Second player">{dispute.playerB.username}</Fact>
        <Fact label="Scores">
          {dispute.scoreA === null ? (
            <Missing>None reported</Missing>
          ) : (
            `${dispute.scoreA}–${dispute.scoreB}`
          )}
        </Fact>
        <Fact label={claimant ? 'No-show claimed by' : 'Reported by'}>
          {claimant ?? nameOf(dispute, dispute.reportedBy) ?? <Missing />}
        </Fact>
        <Fact label="Screenshot">
          <ScreenshotLink screenshot={dispute.screenshotUrl} />
        </Fact>
        <Fact label="Reported">
          {dispute.reportedAt ? formatDateTime(dispute.reportedAt) : <Missing />}
        </Fact>
        <Fact label="Dispute reason" wide>
          {dispute.disputeReason ?? <Missing>None given</Missing>}
        </Fact>
        {dispute.notes && (
          <Fact label="Submission notes" wide>
            {dispute.notes}
          </Fact>
        )}
      </dl>
      <EvidenceBySide
        sides={[dispute.playerA, dispute.playerB].map((player) => ({
          id: player.id,
          name: player.username,
        }))}
        evidence={dispute.evidence}
      />
      <div className="flex flex-wrap items-center gap-3">
        <DecideMatchDialog dispute={dispute} />
        <Link
          href={`/tournaments/${dispute.tournamentId}`}
          className="text-sm text-accent underline underline-offset-4"
        >
          Open tournament #{dispute.tournamentId}
        </Link>
      </div>
    </article>
  );
}

/**
 * Disputed tournament matches (decision 0020), above the challenges' disputes: each labelled as
 * a tournament's, with a link to its bracket, decided here through the tournament's own route.
 * Nothing is shown while there are none.
 */
export function TournamentDisputes() {
  const disputes = useTournamentDisputes();
  if (!disputes.data || disputes.data.length === 0) return null;
  return (
    <section aria-label="Tournament disputes" className="space-y-3">
      <h2 className="font-display text-sm font-bold tracking-widest text-slate-300 uppercase">
        Tournament matches
      </h2>
      <ul aria-label="Disputed tournament matches" className="space-y-3">
        {disputes.data.map((dispute) => (
          <li key={dispute.matchId} className="min-w-0">
            <TournamentDisputeRow dispute={dispute} />
          </li>
        ))}
      </ul>
    </section>
  );
}
