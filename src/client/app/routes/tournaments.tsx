import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { Trophy, TriangleAlert } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import type { TournamentSummary } from '#shared/contracts/tournaments.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Card, CardContent } from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { useTournaments } from '#client/features/tournaments/api/get-tournaments.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';

// Only admins see the form: a player's page does not wait for it, its form helpers or the
// tournament contracts it checks with.
const CreateTournamentForm = lazy(() =>
  import('#client/features/tournaments/components/create-tournament-form.tsx').then((m) => ({
    default: m.CreateTournamentForm,
  })),
);

const SECTIONS: Array<{ title: string; statuses: TournamentSummary['status'][]; empty: string }> = [
  { title: 'Upcoming', statuses: ['open'], empty: 'No tournament is taking entries right now.' },
  { title: 'Live', statuses: ['live'], empty: 'No tournament is being played right now.' },
  {
    title: 'Finished',
    statuses: ['finished', 'cancelled'],
    empty: 'No tournament has finished yet.',
  },
];

function TournamentCard({ tournament }: { tournament: TournamentSummary }) {
  return (
    <li>
      <Card>
        <CardContent className="flex flex-col gap-3 p-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link
              href={`/tournaments/${tournament.id}`}
              className="font-display text-lg font-bold tracking-wide text-white underline-offset-4 hover:underline"
            >
              {tournament.game}
            </Link>
            <Badge variant={tournament.status === 'cancelled' ? 'neutral' : 'accent'}>
              {tournament.status}
            </Badge>
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
            <div>
              <dt className="text-slate-400">Entry fee</dt>
              <dd className="font-semibold text-white">{formatDollars(tournament.entryFee)}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Prize pool</dt>
              <dd className="font-semibold text-white">{formatDollars(tournament.prizePool)}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Places left</dt>
              <dd className="font-semibold text-white">
                {tournament.placesLeft} of {tournament.size}
              </dd>
            </div>
            <div>
              <dt className="text-slate-400">Starts</dt>
              <dd className="text-white">{formatDateTime(tournament.startsAt)}</dd>
            </div>
          </dl>
          <p className="text-sm text-slate-400">
            {tournament.console}
            {tournament.joined && ' · You are in'}
          </p>
        </CardContent>
      </Card>
    </li>
  );
}

/**
 * /tournaments (docs/tournaments.md): upcoming, live and finished, and for admins the creation
 * form.
 */
export function TournamentsPage({ user }: { user: PublicUser }) {
  const list = useTournaments();
  const sections =
    !list.isPending && list.data === undefined ? (
      <EmptyState icon={TriangleAlert} title="COULD NOT LOAD TOURNAMENTS" />
    ) : (
      // The sections are drawn at once, each with a line standing in for its list while it
      // loads: an empty list takes the same room, so nothing below moves when it arrives.
      SECTIONS.map((section) => {
        const rows = (list.data ?? []).filter((row) => section.statuses.includes(row.status));
        return (
          <section key={section.title} aria-label={section.title} className="mb-8">
            <h2 className="mb-3 flex items-center gap-2 font-display text-lg font-bold tracking-wider text-white">
              <Trophy aria-hidden="true" className="size-5 text-accent" />
              {section.title}
            </h2>
            {list.isPending ? (
              <p className="text-slate-400">Loading…</p>
            ) : rows.length === 0 ? (
              <p className="text-slate-400">{section.empty}</p>
            ) : (
              <ul className="grid gap-4 lg:grid-cols-2">
                {rows.map((row) => (
                  <TournamentCard key={row.id} tournament={row} />
                ))}
              </ul>
            )}
          </section>
        );
      })
    );
  return (
    <>
      <PageHeader
        eyebrow="SINGLE ELIMINATION"
        title="TOURNAMENTS"
        description="Pay the entry fee to take a place. The pool, minus the 5% fee, is paid by place when the final's result stands."
      />
      {user.isAdmin ? (
        // The form and the lists appear together: a form arriving above them would push down
        // what the eye or the keyboard is on.
        <Suspense fallback={<Spinner label="Loading tournaments" />}>
          <CreateTournamentForm />
          {sections}
        </Suspense>
      ) : (
        sections
      )}
    </>
  );
}
