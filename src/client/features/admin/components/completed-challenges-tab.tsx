import { useId } from 'react';
import { CircleCheck, Trophy } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useAdminChallenges } from '../api/get-admin-challenges.ts';
import { playerName, scoreLine, winnerLabel } from '../lib/challenge-display.ts';
import { ChallengeDetailsDialog } from './challenge-details-dialog.tsx';
import { Fact, Missing, rowClasses } from './facts.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';
import { ScreenshotLink } from './screenshot-view.tsx';

function CompletedChallengeRow({ challenge }: { challenge: ChallengeView }) {
  const titleId = useId();
  const winner = winnerLabel(challenge);
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="font-display text-base font-bold tracking-wide text-white">
            {challenge.game}
          </h3>
          <p className="text-xs text-slate-400">
            #{challenge.id}
            {challenge.completedAt && ` · finalized ${formatDateTime(challenge.completedAt)}`}
          </p>
        </div>
        <p className="font-display text-lg font-black text-accent tabular-nums">
          <span className="sr-only">Prize: </span>
          {formatDollars(challenge.prize)}
        </p>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-5">
        <Fact label="Creator">{playerName(challenge.creator)}</Fact>
        <Fact label="Acceptor">{playerName(challenge.acceptor)}</Fact>
        <Fact label="Scores">{scoreLine(challenge)}</Fact>
        <Fact label="Winner">
          {winner ? (
            <span className="inline-flex items-center gap-1 text-emerald-300">
              <Trophy aria-hidden="true" className="size-3.5" />
              {winner}
            </span>
          ) : (
            <Missing>None</Missing>
          )}
        </Fact>
        <Fact label="Screenshot">
          <ScreenshotLink screenshot={challenge.winnerScreenshot} />
        </Fact>
      </dl>
      <ChallengeDetailsDialog challenge={challenge} />
    </article>
  );
}

/** docs/product.md#screens COMPLETED CHALLENGES, newest first. */
export function CompletedChallengesTab() {
  const challenges = useAdminChallenges();
  return (
    <PagedList
      query={pagedQuery(challenges)}
      items={challenges.data?.pages.flat() ?? []}
      label="Completed challenges"
      empty={{ icon: CircleCheck, title: 'NO COMPLETED CHALLENGES' }}
      getKey={(challenge) => challenge.id}
      renderItem={(challenge) => <CompletedChallengeRow challenge={challenge} />}
    />
  );
}
