import { useId, useState, type ReactNode } from 'react';
import { Ban, Hourglass, Scale, Swords, Trophy } from 'lucide-react';
import type { ChallengeView, PlayerRecord } from '#shared/contracts/challenges.ts';
import { PlayerLink } from '#client/components/player-link.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { cn } from '#client/lib/cn.ts';
import { pickFocusTarget, useFocusRecovery } from '#client/lib/focus-recovery.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import {
  canCancel,
  canDispute,
  isParticipant,
  safeScreenshotHref,
  winnerName,
} from '../lib/challenge-rules.ts';
import { opponentOf, recordLine } from '../lib/record-line.ts';
import { AcceptChallengeButton } from './accept-challenge-button.tsx';
import { DeclineChallengeButton } from './decline-challenge-button.tsx';
import { CancelChallengeButton } from './cancel-challenge-button.tsx';
import { STATUS_BADGE_VARIANT } from './challenge-card.tsx';
import { DisputeDialog } from './dispute-dialog.tsx';
import { EvidencePanel, MatchActions, ReviewPanel } from './fair-play-panels.tsx';
import { Notice } from './notice.tsx';
import { PhoneNumber } from './phone-number.tsx';
import { ReportPlayerDialog } from './report-player-dialog.tsx';
import { SubmitResultsDialog } from './submit-results-dialog.tsx';

/** Why a cancelled challenge ended, in the players' words. */
const CANCELLED_BECAUSE: Record<string, string> = {
  creator: 'The creator withdrew this challenge and the stake was returned.',
  mutual: 'Both players called this match off; both stakes were refunded.',
  expired: 'No result was reported in time, so both stakes were refunded.',
  refunded: 'An admin refunded both stakes after reviewing the dispute.',
  suspended: 'This challenge was withdrawn and the stake returned.',
  play_break: 'This challenge was withdrawn and the stake returned.',
  money_locked: 'This challenge was withdrawn and the stake returned.',
};

/**
 * docs/product.md#screens: the detail page shows an open challenge as Available, other statuses by
 * name.
 */
export function detailStatusLabel(status: ChallengeView['status']): string {
  if (status === 'open') return 'Available';
  return status.charAt(0).toUpperCase() + status.slice(1);
}

function Detail({
  label,
  wide = false,
  children,
}: {
  label: string;
  /** Takes the whole row: for free text that may run long. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      className={cn(
        'min-w-0 rounded-lg border border-ink-700 bg-ink-900/60 p-3 sm:p-4',
        wide && 'col-span-2',
      )}
    >
      <dt className="text-xs font-semibold tracking-wider text-slate-400 uppercase">{label}</dt>
      <dd className="mt-1 font-medium break-words text-slate-100">{children}</dd>
    </div>
  );
}

function ScreenshotLink({ screenshot }: { screenshot: string | null }) {
  if (!screenshot) return <span className="text-slate-400">None</span>;
  const href = safeScreenshotHref(screenshot);
  if (!href) return <span className="break-all text-slate-300">{screenshot}</span>;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="text-accent underline underline-offset-4 hover:text-accent-strong"
    >
      View screenshot
    </a>
  );
}

function Results({ challenge }: { challenge: ChallengeView }) {
  const headingId = useId();
  const winner = winnerName(challenge);
  const acceptorName = challenge.acceptor?.username ?? 'Acceptor';
  return (
    <Card aria-labelledby={headingId} highlight>
      <CardHeader>
        <CardTitle id={headingId}>Results</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3">
          <Detail label={`Creator Score (${challenge.creator.username})`}>
            <span className="font-display text-2xl font-black">
              {challenge.creatorScore ?? '–'}
            </span>
          </Detail>
          <Detail label={`Acceptor Score (${acceptorName})`}>
            <span className="font-display text-2xl font-black">
              {challenge.acceptorScore ?? '–'}
            </span>
          </Detail>
          {challenge.status === 'completed' && winner && (
            <Detail label="Winner">
              <span className="inline-flex items-center gap-2 text-emerald-300">
                <Trophy aria-hidden="true" className="size-4" />
                {winner}
              </span>
            </Detail>
          )}
          <Detail label="Prize">{formatDollars(challenge.prize)}</Detail>
          {challenge.deduction !== null && (
            <Detail label="Fee (5%)">{formatDollars(challenge.deduction)}</Detail>
          )}
          <Detail label="Screenshot">
            <ScreenshotLink screenshot={challenge.winnerScreenshot} />
          </Detail>
          {challenge.notes && (
            <Detail label="Notes" wide>
              {challenge.notes}
            </Detail>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

function PlayerLine({
  role,
  name,
  phoneNumber,
  record,
}: {
  role: string;
  name: string | null;
  phoneNumber: string | null | undefined;
  /** Shown for the players the viewer faces, not for the viewer. */
  record: PlayerRecord | null;
}) {
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-900/60 p-4">
      <dt className="text-xs font-semibold tracking-wider text-slate-400 uppercase">{role}</dt>
      <dd className="mt-1 space-y-1">
        <p className="font-display font-bold tracking-wide break-words text-white">
          {name !== null ? (
            <PlayerLink username={name} />
          ) : (
            <span className="font-sans font-normal text-slate-400">Waiting for an opponent</span>
          )}
        </p>
        {name && (
          <p className="text-sm text-slate-300">
            <PhoneNumber phoneNumber={phoneNumber} />
          </p>
        )}
        {record && (
          <p className="text-sm text-slate-300">
            <span className="text-slate-400">Record:</span> {recordLine(record)}
          </p>
        )}
      </dd>
    </div>
  );
}

function StatusSection({
  challenge,
  viewerId,
  voicePanel,
}: {
  challenge: ChallengeView;
  viewerId: number;
  voicePanel: ReactNode;
}) {
  // The dispute window is judged when the page opens; the server has the final word anyway.
  const [openedAt] = useState(() => new Date());
  const participant = isParticipant(challenge, viewerId);

  switch (challenge.status) {
    case 'open':
      if (challenge.opponent?.id === viewerId) {
        return (
          <Notice
            icon={Swords}
            title={`${challenge.creator.username.toUpperCase()} CHALLENGES YOU`}
          >
            <p>
              A direct challenge, for you only: accept to stake {formatDollars(challenge.amount)},
              or decline and {challenge.creator.username} gets their stake back.
            </p>
            <div className="mt-4 flex max-w-xs flex-col gap-2">
              <AcceptChallengeButton challenge={challenge} />
              <DeclineChallengeButton challenge={challenge} />
            </div>
          </Notice>
        );
      }
      return (
        <Notice icon={Hourglass} title="WAITING FOR AN OPPONENT">
          <p>
            {canCancel(challenge, viewerId)
              ? challenge.opponent
                ? `Your stake is in escrow. Only ${challenge.opponent.username} can accept or decline; you can cancel until then.`
                : 'Your stake is in escrow. You can cancel until someone accepts.'
              : `Accept to stake ${formatDollars(challenge.amount)} against ${challenge.creator.username}.`}
          </p>
          <div className="mt-4 max-w-xs">
            {canCancel(challenge, viewerId) ? (
              <CancelChallengeButton challenge={challenge} />
            ) : (
              <AcceptChallengeButton challenge={challenge} />
            )}
          </div>
        </Notice>
      );
    case 'accepted':
      if (!participant) {
        return <Notice icon={Swords} title="MATCH IN PROGRESS" />;
      }
      return (
        <div className="space-y-6">
          <Notice icon={Swords} title="MATCH IN PROGRESS">
            <p>Play your match, then report the final score with a screenshot.</p>
            <div className="mt-4 max-w-xs">
              <SubmitResultsDialog
                challenge={challenge}
                viewerId={viewerId}
                triggerLabel="SUBMIT RESULTS"
              />
            </div>
          </Notice>
          <MatchActions challenge={challenge} viewerId={viewerId} />
          {voicePanel}
        </div>
      );
    case 'completed':
      return (
        <div className="space-y-6">
          <Results challenge={challenge} />
          <ReviewPanel challenge={challenge} viewerId={viewerId} />
          {/* A result from before reviews existed: disputable for 24 hours after it. */}
          {challenge.reviewEndsAt === null &&
            canDispute(challenge, viewerId, openedAt) &&
            challenge.disputableUntil && (
              <Notice icon={Scale} title="SOMETHING WRONG WITH THIS RESULT?">
                <p>
                  You can dispute it until {formatDateTime(challenge.disputableUntil)}. An admin
                  will review the match.
                </p>
                <div className="mt-4">
                  <DisputeDialog challenge={challenge} />
                </div>
              </Notice>
            )}
        </div>
      );
    case 'disputed':
      return (
        <div className="space-y-6">
          <Notice icon={Scale} title="UNDER ADMIN REVIEW" tone="warning">
            <p>This result is disputed. An admin is reviewing it; no money moves until then.</p>
            {participant && challenge.disputeReason && (
              <p>
                <span className="font-semibold">Reason:</span> {challenge.disputeReason}
              </p>
            )}
          </Notice>
          <Results challenge={challenge} />
          <EvidencePanel challenge={challenge} viewerId={viewerId} />
        </div>
      );
    case 'cancelled':
      return (
        <Notice icon={Ban} title="CHALLENGE CANCELLED">
          <p>
            {CANCELLED_BECAUSE[challenge.cancelCause ?? 'creator'] ?? CANCELLED_BECAUSE.creator}
          </p>
        </Notice>
      );
  }
}

/** Everything about one challenge, and what the viewer can do with it now. */
export function ChallengeDetails({
  challenge,
  viewerId,
  voicePanel = null,
}: {
  challenge: ChallengeView;
  viewerId: number;
  /**
   * The voice chat (docs/product.md#screens), composed by the page; shown to the players of an
   * accepted match.
   */
  voicePanel?: ReactNode;
}) {
  // Accepting or cancelling replaces the button that had focus: its successor takes it.
  const focusRecovery = useFocusRecovery<HTMLDivElement>(pickFocusTarget);
  // Only the two players may report each other from here: they are the ones who played.
  const opponent = isParticipant(challenge, viewerId) ? opponentOf(challenge, viewerId) : null;
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Match Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3">
              <Detail label="Game">{challenge.game}</Detail>
              <Detail label="Wager">{formatDollars(challenge.amount)}</Detail>
              <Detail label="Gamer Tag">{challenge.gamerTag || 'Erased'}</Detail>
              <Detail label="Console">{challenge.console}</Detail>
              {challenge.mode && <Detail label="Mode">{challenge.mode}</Detail>}
              {challenge.platform && <Detail label="Platform">{challenge.platform}</Detail>}
              <Detail label="Status">
                <Badge
                  variant={STATUS_BADGE_VARIANT[challenge.status]}
                  asWritten
                  className="text-xs"
                >
                  {detailStatusLabel(challenge.status)}
                </Badge>
              </Detail>
              <Detail label="Created">{formatDateTime(challenge.createdAt)}</Detail>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Players</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="space-y-3">
              <PlayerLine
                role="Creator"
                name={challenge.creator.username}
                phoneNumber={challenge.phoneNumber}
                record={challenge.creatorId === viewerId ? null : challenge.creator.record}
              />
              <PlayerLine
                role="Acceptor"
                name={challenge.acceptor?.username ?? null}
                phoneNumber={challenge.acceptor?.phoneNumber}
                record={
                  challenge.acceptor && challenge.acceptorId !== viewerId
                    ? challenge.acceptor.record
                    : null
                }
              />
            </dl>
            {opponent && (
              <div className="mt-4">
                <ReportPlayerDialog challenge={challenge} opponent={opponent.username} />
              </div>
            )}
          </CardContent>
        </Card>
      </div>
      <div {...focusRecovery} tabIndex={-1} className="outline-offset-4">
        <StatusSection challenge={challenge} viewerId={viewerId} voicePanel={voicePanel} />
      </div>
    </div>
  );
}
