import { Link } from 'wouter';
import { ArrowLeft } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import type { TournamentDetail } from '#shared/contracts/tournaments.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useTournament } from '#client/features/tournaments/api/get-tournaments.ts';
import { useTournamentAction } from '#client/features/tournaments/api/tournament-actions.ts';
import { Bracket } from '#client/features/tournaments/components/bracket.tsx';
import {
  currentMatchOf,
  DisputedMatches,
  MyMatch,
} from '#client/features/tournaments/components/my-match.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { NotFoundPage } from './not-found.tsx';

function placeName(place: number): string {
  if (place === 1) return '1st';
  if (place === 2) return '2nd';
  if (place === 3) return '3rd';
  return `${place}th`;
}

function Facts({ tournament }: { tournament: TournamentDetail }) {
  const facts: Array<[string, string]> = [
    ['Entry fee', formatDollars(tournament.entryFee)],
    ['Prize pool', formatDollars(tournament.prizePool)],
    ['Players', `${tournament.entrants} of ${tournament.size}`],
    ['Places left', String(tournament.placesLeft)],
    ['Starts', formatDateTime(tournament.startsAt)],
    [
      'Prize split',
      tournament.prizeSplit.map((share, i) => `${placeName(i + 1)} ${share}%`).join(' · '),
    ],
  ];
  return (
    <dl className="mb-6 grid grid-cols-2 gap-x-4 gap-y-3 rounded-xl border border-ink-700 bg-ink-850/80 p-4 text-sm sm:grid-cols-3">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt className="text-slate-400">{term}</dt>
          <dd className="font-semibold text-white">{value}</dd>
        </div>
      ))}
      {tournament.seed && (
        <div className="col-span-2 sm:col-span-3">
          <dt className="text-slate-400">Draw seed</dt>
          <dd className="font-mono text-xs break-all text-slate-200">{tournament.seed}</dd>
        </div>
      )}
    </dl>
  );
}

function EntryActions({ tournament }: { tournament: TournamentDetail }) {
  const action = useTournamentAction(tournament.id);
  if (tournament.status !== 'open') return null;
  const full = !tournament.joined && tournament.placesLeft === 0;
  // One button that changes its words, never disabled while the request runs: a disabled or
  // replaced button would drop the keyboard's focus to the page.
  return (
    <Button
      variant={tournament.joined ? 'outline' : 'primary'}
      disabled={full}
      aria-busy={action.isPending}
      onClick={() => {
        if (!action.isPending) action.mutate({ kind: tournament.joined ? 'leave' : 'join' });
      }}
    >
      {tournament.joined
        ? `LEAVE (REFUND ${formatDollars(tournament.entryFee)})`
        : `JOIN FOR ${formatDollars(tournament.entryFee)}`}
    </Button>
  );
}

function AdminCancel({ tournament }: { tournament: TournamentDetail }) {
  const action = useTournamentAction(tournament.id);
  if (tournament.status !== 'open' && tournament.status !== 'live') return null;
  return (
    <Button
      variant="outline"
      disabled={action.isPending}
      onClick={() => action.mutate({ kind: 'cancel' })}
    >
      CANCEL AND REFUND ALL
    </Button>
  );
}

/**
 * /tournaments/{id} (docs/tournaments.md): the facts, the viewer's match, the bracket as it stands.
 */
export function TournamentDetailPage({ id, user }: { id: string; user: PublicUser }) {
  const numeric = /^[1-9]\d{0,9}$/.test(id) ? Number(id) : 0;
  const query = useTournament(numeric);
  if (numeric === 0) return <NotFoundPage />;
  if (query.isPending) return <PageSpinner />;
  const tournament = query.data;
  if (!tournament) return <NotFoundPage />;
  const mine = currentMatchOf(tournament, user.id);
  const placed = tournament.entries.filter((entry) => entry.place !== null);
  return (
    <>
      <Link
        href="/tournaments"
        className="mb-4 inline-flex items-center gap-1 text-sm text-slate-300 hover:text-white"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All tournaments
      </Link>
      <PageHeader
        eyebrow={`TOURNAMENT #${tournament.id} · ${tournament.console}`}
        title={tournament.game}
        description={
          <Badge variant={tournament.status === 'cancelled' ? 'neutral' : 'accent'}>
            {tournament.status}
          </Badge>
        }
        actions={
          <>
            <EntryActions tournament={tournament} />
            {user.isAdmin && <AdminCancel tournament={tournament} />}
          </>
        }
      />
      <Facts tournament={tournament} />
      {mine && tournament.status === 'live' && (
        <MyMatch tournament={tournament} match={mine} userId={user.id} />
      )}
      {user.isAdmin && tournament.status === 'live' && <DisputedMatches tournament={tournament} />}
      {tournament.status === 'open' && (
        <Card className="mb-6">
          <CardHeader>
            <CardTitle>How it starts</CardTitle>
          </CardHeader>
          <CardContent className="space-y-2 text-sm text-slate-300">
            <p>
              At {formatDateTime(tournament.startsAt)} the players are drawn into the bracket from a
              random seed, shown here once it is drawn, and round 1 begins.
            </p>
            <p>
              {tournament.allowByes
                ? 'If it is not full by then, it starts with byes: some players go straight to round 2.'
                : 'If it is not full by then, it is cancelled and every entry fee is refunded.'}{' '}
              You can leave, with your fee back, until it starts.
            </p>
          </CardContent>
        </Card>
      )}
      {tournament.rounds > 0 && (
        <>
          <h2 className="mb-3 font-display text-lg font-bold tracking-wider text-white">Bracket</h2>
          <Bracket tournament={tournament} />
        </>
      )}
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>{placed.length > 0 ? 'Final places' : 'Players'}</CardTitle>
        </CardHeader>
        <CardContent>
          {tournament.entries.length === 0 ? (
            <p className="text-slate-400">Nobody has joined yet.</p>
          ) : (
            <ol className="grid gap-1 text-sm sm:grid-cols-2">
              {tournament.entries.map((entry) => (
                <li key={entry.id} className="flex justify-between gap-2 text-slate-200">
                  <span className="truncate">
                    {entry.place !== null && `${placeName(entry.place)} · `}
                    {entry.username}
                  </span>
                  {entry.prize !== null && entry.prize > 0 && (
                    <span className="font-semibold text-accent">{formatDollars(entry.prize)}</span>
                  )}
                </li>
              ))}
            </ol>
          )}
        </CardContent>
      </Card>
    </>
  );
}
