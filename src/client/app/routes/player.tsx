import { Link } from 'wouter';
import { ArrowLeft, Gamepad2, History, TriangleAlert, Trophy } from 'lucide-react';
import type { PlayerProfile } from '#shared/contracts/players.ts';
import { PlayerLink } from '#client/components/player-link.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { recordLine } from '#client/features/challenges/lib/record-line.ts';
import { usePlayer } from '#client/features/players/api/get-player.ts';
import { formatDateTime, formatDollars, formatMonthYear } from '#client/lib/format.ts';
import { NotFound } from './not-found.tsx';

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-900/60 p-3">
      <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
        {label}
      </dt>
      <dd className="mt-1 font-display text-xl font-black text-white tabular-nums">{value}</dd>
    </div>
  );
}

function RecordCard({ player }: { player: PlayerProfile }) {
  const { record } = player;
  const share = record.played === 0 ? '–' : `${Math.round((record.won / record.played) * 100)}%`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Record</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-slate-300">{recordLine(record)}</p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Stat label="Played" value={record.played} />
          <Stat label="Won" value={record.won} />
          <Stat label="Lost" value={record.lost} />
          <Stat label="Win rate" value={share} />
          <Stat label="Disputes lost" value={record.disputesLost} />
          <Stat label="No-shows" value={record.noShows} />
          <Stat label="Cancelled" value={record.cancelled} />
          <Stat label="Ties lost" value={record.tiesLost} />
        </dl>
      </CardContent>
    </Card>
  );
}

function GamesCard({ player }: { player: PlayerProfile }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Games played most</CardTitle>
      </CardHeader>
      <CardContent>
        {player.games.length === 0 ? (
          <p className="text-slate-300">No finished matches yet.</p>
        ) : (
          <ul className="space-y-2">
            {player.games.map((game) => (
              <li
                key={game.game}
                className="flex items-center justify-between gap-3 rounded-lg border border-ink-700 bg-ink-900/60 px-3 py-2"
              >
                <span className="flex min-w-0 items-center gap-2">
                  <Gamepad2 aria-hidden="true" className="size-4 shrink-0 text-accent" />
                  <span className="truncate font-semibold text-white">{game.game}</span>
                </span>
                <span className="shrink-0 text-sm text-slate-300 tabular-nums">
                  {game.played} played · {game.wins} won
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function ResultsCard({ player }: { player: PlayerProfile }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Last results</CardTitle>
      </CardHeader>
      <CardContent>
        {player.results.length === 0 ? (
          <EmptyState
            icon={History}
            title="NO RESULTS YET"
            description="Finished matches show up here."
          />
        ) : (
          <ol aria-label={`Last results of ${player.username}`} className="space-y-2">
            {player.results.map((result) => (
              <li
                key={result.challengeId}
                className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 rounded-lg border border-ink-700 bg-ink-900/60 px-3 py-2"
              >
                <Badge variant={result.won ? 'success' : 'danger'}>
                  {result.won ? 'WON' : 'LOST'}
                </Badge>
                <div className="min-w-0">
                  <p className="truncate font-semibold text-white">
                    <Link
                      href={`/challenges/${result.challengeId}`}
                      className="rounded-sm hover:text-accent-strong"
                    >
                      {result.game}
                    </Link>
                  </p>
                  <p className="truncate text-sm text-slate-300">
                    vs{' '}
                    {result.opponent ? (
                      <PlayerLink username={result.opponent} />
                    ) : (
                      'a closed account'
                    )}{' '}
                    · {formatDollars(result.amount)}
                  </p>
                  <p className="text-xs text-slate-400">{formatDateTime(result.completedAt)}</p>
                </div>
                <p
                  className="font-display text-lg font-black text-white tabular-nums"
                  aria-label={`Score ${result.score} to ${result.opponentScore}`}
                >
                  {result.score}–{result.opponentScore}
                </p>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * /players/{username} (docs/challenges.md#finding-an-opponent): when they joined, their record, the
 * games they play most and their last results; no contact data, no balance. An unknown or closed
 * account is the app's not-found page, naming the player.
 */
export function PlayerPage({ username }: { username: string }) {
  const player = usePlayer(username);
  if (player.data === null) {
    return (
      <NotFound
        title="PLAYER NOT FOUND"
        description={`No player is called ${username}: the name may be mistyped, or the account closed.`}
      />
    );
  }

  return (
    <>
      <div className="mb-6 flex flex-wrap gap-2">
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link href="/">
            <ArrowLeft aria-hidden="true" />
            ALL CHALLENGES
          </Link>
        </Button>
        <Button asChild variant="ghost" size="sm">
          <Link href="/leaderboard">
            <Trophy aria-hidden="true" />
            LEADERBOARD
          </Link>
        </Button>
      </div>
      {player.isPending ? (
        <PageSpinner />
      ) : player.data === undefined ? (
        <EmptyState
          icon={TriangleAlert}
          title="COULD NOT LOAD THIS PLAYER"
          description="Please refresh the page to try again."
        />
      ) : (
        <>
          <PageHeader
            eyebrow="PLAYER"
            title={player.data.username}
            description={`Joined ${formatMonthYear(player.data.joinedAt) ?? player.data.joinedAt}`}
          />
          <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <div className="space-y-6">
              <RecordCard player={player.data} />
              <ResultsCard player={player.data} />
            </div>
            <div className="self-start">
              <GamesCard player={player.data} />
            </div>
          </div>
        </>
      )}
    </>
  );
}
