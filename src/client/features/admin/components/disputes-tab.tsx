import { useId } from 'react';
import { Lock, Scale, TriangleAlert } from 'lucide-react';
import type { AdminDispute } from '#shared/contracts/admin.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useDisputes } from '../api/get-disputes.ts';
import { useTournamentDisputes } from '../api/get-tournament-disputes.ts';
import { playerName, scoreLine, winnerLabel } from '../lib/challenge-display.ts';
import { ChallengeDetailsDialog } from './challenge-details-dialog.tsx';
import { Fact, Missing, rowClasses } from './facts.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';
import { ResolveDisputeDialog } from './resolve-dispute-dialog.tsx';
import { ScreenshotLink } from './screenshot-view.tsx';
import { TournamentDisputes } from './tournament-disputes.tsx';

function submitterName(dispute: AdminDispute): string | null {
  if (dispute.submittedBy === null) return null;
  if (dispute.submittedBy === dispute.creatorId) return playerName(dispute.creator);
  if (dispute.submittedBy === dispute.acceptorId) return playerName(dispute.acceptor);
  return null;
}

function DisputeRow({ dispute }: { dispute: AdminDispute }) {
  const titleId = useId();
  const paidTo = dispute.stakesInEscrow || dispute.heldForReview ? null : winnerLabel(dispute);
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="font-display text-base font-bold tracking-wide text-white">
            {dispute.game}
          </h3>
          <p className="text-xs text-slate-400">
            #{dispute.id} · {formatDollars(dispute.amount)} each · prize{' '}
            {formatDollars(dispute.prize)}
          </p>
        </div>
        {dispute.stakesInEscrow ? (
          <Badge variant="accent">
            <Lock aria-hidden="true" className="size-3" />
            STAKES IN ESCROW
          </Badge>
        ) : dispute.heldForReview ? (
          <Badge variant="accent">
            <Lock aria-hidden="true" className="size-3" />
            WINNINGS HELD FOR REVIEW
          </Badge>
        ) : (
          <Badge variant="warning">
            <TriangleAlert aria-hidden="true" className="size-3" />
            ALREADY PAID OUT
          </Badge>
        )}
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Fact label="Creator">{playerName(dispute.creator)}</Fact>
        <Fact label="Acceptor">{playerName(dispute.acceptor)}</Fact>
        <Fact label="Scores">{scoreLine(dispute)}</Fact>
        <Fact label="Submitted by">{submitterName(dispute) ?? <Missing />}</Fact>
        {paidTo && <Fact label="Paid to">{paidTo}</Fact>}
        <Fact label="Screenshot">
          <ScreenshotLink screenshot={dispute.winnerScreenshot} />
        </Fact>
        <Fact label="Updated">{formatDateTime(dispute.updatedAt)}</Fact>
        <Fact label="Dispute reason" wide>
          {dispute.disputeReason ?? <Missing>None given</Missing>}
        </Fact>
        {dispute.notes && (
          <Fact label="Submission notes" wide>
            {dispute.notes}
          </Fact>
        )}
      </dl>
      <div className="flex flex-wrap gap-2">
        <ResolveDisputeDialog dispute={dispute} />
        <ChallengeDetailsDialog challenge={dispute} />
      </div>
    </article>
  );
}

/**
 * Beyond the SPEC (issue 6): matches waiting for an admin's decision, tournament matches first
 * (from their own list, decision 0020), then challenges.
 */
export function DisputesTab() {
  const disputes = useDisputes();
  const tournamentDisputes = useTournamentDisputes().data?.length ?? 0;
  return (
    <div className="space-y-6">
      <TournamentDisputes />
      <PagedList
        query={pagedQuery(disputes)}
        items={disputes.data?.pages.flat() ?? []}
        label="Disputes"
        empty={{
          icon: Scale,
          title: tournamentDisputes > 0 ? 'NO DISPUTED CHALLENGES' : 'NO OPEN DISPUTES',
        }}
        getKey={(dispute) => dispute.id}
        renderItem={(dispute) => <DisputeRow dispute={dispute} />}
      />
    </div>
  );
}
