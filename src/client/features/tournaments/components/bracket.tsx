import type { TournamentDetail, TournamentMatchView } from '#shared/contracts/tournaments.ts';
import { cn } from '#client/lib/cn.ts';
import { formatDateTime } from '#client/lib/format.ts';

const STATUS_TEXT: Record<TournamentMatchView['status'], string> = {
  waiting: 'Waiting for players',
  playing: 'Being played',
  reported: 'Result under review',
  disputed: 'Disputed: an admin decides',
  done: 'Done',
};

/** A result the time limit decided says so (decision 0020). */
const STAND_TEXT: Partial<Record<string, string>> = {
  no_show: 'Done: no-show, unanswered',
  time_limit: 'Done: not played in time, higher seed',
};

export function roundName(round: number, rounds: number): string {
  if (round === rounds) return 'Final';
  if (round === rounds - 1) return 'Semi-finals';
  if (round === rounds - 2) return 'Quarter-finals';
  return `Round ${round}`;
}

function PlayerLine({
  player,
  score,
  won,
  bye,
}: {
  player: TournamentMatchView['playerA'];
  score: number | null;
  won: boolean;
  bye: boolean;
}) {
  return (
    <div
      className={cn(
        'flex items-center justify-between gap-2 px-3 py-1.5',
        won ? 'font-semibold text-white' : 'text-slate-300',
      )}
    >
      <span className="truncate">
        {player ? player.username : bye ? 'Bye' : 'To be decided'}
        {won && <span className="sr-only"> (winner)</span>}
      </span>
      <span className={cn('tabular-nums', won && 'text-accent')}>{score ?? ''}</span>
    </div>
  );
}

/**
 * The bracket as it stands, a column per round, drawn with a CSS grid: each match spans twice
 * the rows of one in the round before, so it sits level with the two matches that feed it. The
 * region scrolls sideways by itself on a narrow screen, never the page.
 */
export function Bracket({ tournament }: { tournament: TournamentDetail }) {
  const { rounds } = tournament;
  if (rounds === 0) return null;
  const firstRoundMatches = 2 ** (rounds - 1);
  return (
    <section
      aria-label="Bracket"
      tabIndex={0}
      className="overflow-x-auto rounded-xl border border-ink-700 bg-ink-900/60 p-4 focus-visible:outline-2 focus-visible:outline-accent"
    >
      <div
        className="grid gap-x-6 gap-y-3"
        style={{
          gridTemplateColumns: `repeat(${rounds}, minmax(12rem, 1fr))`,
          gridTemplateRows: `auto repeat(${firstRoundMatches}, minmax(0, auto))`,
          minWidth: `${rounds * 13.5}rem`,
        }}
      >
        {Array.from({ length: rounds }, (_, index) => (
          <h3
            key={`round-${index + 1}`}
            className="font-display text-xs font-bold tracking-widest text-slate-400 uppercase"
            style={{ gridColumn: index + 1, gridRow: 1 }}
          >
            {roundName(index + 1, rounds)}
          </h3>
        ))}
        {tournament.matches.map((match) => {
          const span = 2 ** (match.round - 1);
          const bye = match.standCause === 'bye';
          return (
            <article
              key={match.id}
              aria-label={`${roundName(match.round, rounds)}, match ${match.slot + 1}`}
              className={cn(
                'self-center overflow-hidden rounded-lg border text-sm',
                match.status === 'disputed'
                  ? 'border-red-400/60'
                  : match.status === 'playing' || match.status === 'reported'
                    ? 'border-accent/60'
                    : 'border-ink-600',
                'bg-ink-850',
              )}
              style={{
                gridColumn: match.round,
                gridRow: `${2 + match.slot * span} / span ${span}`,
              }}
            >
              <PlayerLine
                player={match.playerA}
                score={match.scoreA}
                won={
                  match.winnerId !== null &&
                  match.winnerId === match.playerA?.id &&
                  match.status === 'done'
                }
                bye={false}
              />
              <div className="border-t border-ink-700" />
              <PlayerLine
                player={match.playerB}
                score={match.scoreB}
                won={
                  match.winnerId !== null &&
                  match.winnerId === match.playerB?.id &&
                  match.status === 'done'
                }
                bye={bye}
              />
              <p className="border-t border-ink-700 bg-ink-900/70 px-3 py-1 text-xs text-slate-400">
                {bye ? 'Bye' : (STAND_TEXT[match.standCause ?? ''] ?? STATUS_TEXT[match.status])}
                {match.deadlineAt && (
                  <>
                    <br />
                    Decided at {formatDateTime(match.deadlineAt)} if unplayed
                  </>
                )}
              </p>
            </article>
          );
        })}
      </div>
    </section>
  );
}
