import { useId, type ReactNode } from 'react';
import { Link } from 'wouter';
import { Eye, Trophy } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import { PlayerLink } from '#client/components/player-link.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { cardClasses } from '#client/components/ui/card.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDollars } from '#client/lib/format.ts';
import { canCancel, cardAction, challengeStatusLabel, winnerName } from '../lib/challenge-rules.ts';
import { opponentOf, recordLine } from '../lib/record-line.ts';
import { AcceptChallengeButton } from './accept-challenge-button.tsx';
import { CancelChallengeButton } from './cancel-challenge-button.tsx';
import { PhoneNumber } from './phone-number.tsx';
import { SubmitResultsDialog } from './submit-results-dialog.tsx';

export const STATUS_BADGE_VARIANT: Record<ChallengeView['status'], BadgeVariant> = {
  open: 'accent',
  accepted: 'warning',
  completed: 'success',
  disputed: 'danger',
  cancelled: 'neutral',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
        {label}
      </dt>
      <dd className="truncate text-sm font-medium text-slate-100">{children}</dd>
    </div>
  );
}

export interface ChallengeCardProps {
  challenge: ChallengeView;
  viewerId: number;
}

/**
 * One challenge in a grid (docs/product.md#screens): every field a player needs to decide, the
 * opponent's record (docs/fair-play.md), and the one action the viewer may take. The game name
 * links to the detail page whatever the action is.
 */
export function ChallengeCard({ challenge, viewerId }: ChallengeCardProps) {
  const titleId = useId();
  const action = cardAction(challenge, viewerId);
  const winner = challenge.status === 'completed' ? winnerName(challenge) : null;
  const opponent = opponentOf(challenge, viewerId);

  return (
    <article
      aria-labelledby={titleId}
      className={cn(cardClasses(action !== 'view'), 'flex h-full flex-col gap-4 p-5')}
    >
      <header className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="font-display text-base font-bold tracking-wide break-words">
            <Link
              href={`/challenges/${challenge.id}`}
              data-focus-target
              className="rounded-sm text-white hover:text-accent-strong"
            >
              {challenge.game}
            </Link>
          </h3>
          <p className="mt-1 font-display text-2xl font-black text-accent tabular-nums">
            {formatDollars(challenge.amount)}
          </p>
        </div>
        <Badge variant={STATUS_BADGE_VARIANT[challenge.status]}>
          {challengeStatusLabel(challenge.status)}
        </Badge>
      </header>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
        <Fact label="Creator">
          <PlayerLink username={challenge.creator.username} />
        </Fact>
        {challenge.acceptor && (
          <Fact label="Acceptor">
            <PlayerLink username={challenge.acceptor.username} />
          </Fact>
        )}
        {challenge.opponent && !challenge.acceptor && (
          <Fact label="Challenged">
            <PlayerLink username={challenge.opponent.username} />
          </Fact>
        )}
        <Fact label="Gamer Tag">{challenge.gamerTag || 'Erased'}</Fact>
        <Fact label="Console">{challenge.console}</Fact>
        <div className="col-span-2 min-w-0">
          <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
            Phone
          </dt>
          <dd className="text-sm font-medium text-slate-100">
            <PhoneNumber phoneNumber={challenge.phoneNumber} />
          </dd>
        </div>
        {opponent && (
          <div className="col-span-2 min-w-0">
            <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
              Opponent record
            </dt>
            <dd className="text-sm font-medium text-slate-100">{recordLine(opponent.record)}</dd>
          </div>
        )}
        {(challenge.mode ?? challenge.platform) && (
          <div className="col-span-2 min-w-0">
            <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
              Mode / Platform
            </dt>
            <dd className="truncate text-sm font-medium text-slate-100">
              {[challenge.mode, challenge.platform].filter(Boolean).join(' · ')}
            </dd>
          </div>
        )}
      </dl>

      {winner && (
        <p className="flex items-center gap-2 rounded-md border border-emerald-400/40 bg-emerald-400/10 px-3 py-2 text-sm">
          <Trophy aria-hidden="true" className="size-4 shrink-0 text-emerald-300" />
          <span className="font-display text-xs font-bold tracking-widest text-emerald-300">
            WINNER
          </span>
          <span className="truncate font-semibold text-white">{winner}</span>
        </p>
      )}

      <div className="mt-auto flex flex-col gap-2">
        {action === 'accept' && <AcceptChallengeButton challenge={challenge} />}
        {action === 'submit' && (
          <SubmitResultsDialog
            challenge={challenge}
            viewerId={viewerId}
            triggerLabel="SUBMIT SCORES"
          />
        )}
        {action === 'view' && (
          <Button asChild variant="outline" className="w-full">
            <Link href={`/challenges/${challenge.id}`}>
              <Eye aria-hidden="true" />
              VIEW DETAILS
            </Link>
          </Button>
        )}
        {canCancel(challenge, viewerId) && <CancelChallengeButton challenge={challenge} />}
      </div>
    </article>
  );
}
