import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft, TriangleAlert } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { INSIGHTS_MESSAGES, type PlayerPage } from '#shared/contracts/insights.ts';
import type { AdminUser } from '#shared/contracts/wallet.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { formatDateTime, formatDollars, formatSignedDollars } from '#client/lib/format.ts';
import { useAddAdminNote } from '#client/features/admin/api/add-admin-note.ts';
import { usePlayer } from '#client/features/admin/api/get-player.ts';
import { DeviceLinksSection } from '#client/features/admin/components/device-links.tsx';
import { Fact, Missing } from '#client/features/admin/components/facts.tsx';
import { SuspendUserDialog } from '#client/features/admin/components/suspend-user-dialog.tsx';
import { UnsuspendButton } from '#client/features/admin/components/users-tab.tsx';
import { MoneyLockNotice } from '#client/features/admin/components/money-lock-notice.tsx';
import { AccessDenied } from './admin.tsx';

const headerCell = 'px-3 py-2 text-left font-semibold tracking-wider whitespace-nowrap';
const cell = 'px-3 py-2 whitespace-nowrap';
const numberCell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';

/** A titled table of the newest rows of one list, or a line saying there are none. */
function ListSection({
  title,
  empty,
  headers,
  children,
}: {
  title: string;
  empty: boolean;
  headers: Array<{ label: string; numeric?: boolean }>;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="font-display text-sm font-bold tracking-wider text-white">
        {title}
      </h2>
      {empty ? (
        <p className="text-sm text-slate-400">None.</p>
      ) : (
        <div
          role="region"
          aria-label={`${title}, table`}
          tabIndex={0}
          className="overflow-x-auto rounded-lg border border-ink-700 focus-visible:outline-2 focus-visible:outline-accent"
        >
          <table className="w-full min-w-[36rem] text-sm text-slate-200">
            <thead className="bg-ink-900 text-[0.7rem] text-slate-400 uppercase">
              <tr>
                {headers.map((header) => (
                  <th
                    key={header.label}
                    scope="col"
                    className={`${headerCell} ${header.numeric ? 'text-right' : ''}`}
                  >
                    {header.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-700">{children}</tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function NoteForm({ userId }: { userId: number }) {
  const fieldId = useId();
  const errorId = useId();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddAdminNote(userId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = body.trim();
    if (!text) return setError(INSIGHTS_MESSAGES.noteRequired);
    if (text.length > 2000) return setError(INSIGHTS_MESSAGES.noteMax);
    setError(null);
    add.mutate(text, { onSuccess: () => setBody('') });
  };
  return (
    <form onSubmit={submit} className="space-y-2" noValidate>
      <Label htmlFor={fieldId}>New note</Label>
      <Textarea
        id={fieldId}
        value={body}
        onChange={(event) => setBody(event.currentTarget.value)}
        aria-describedby={error ? errorId : undefined}
        aria-invalid={error ? true : undefined}
      />
      {error && (
        <p id={errorId} className="text-sm text-red-300">
          {error}
        </p>
      )}
      <Button type="submit" size="sm" disabled={add.isPending}>
        {add.isPending ? 'SAVING...' : 'SAVE NOTE'}
      </Button>
    </form>
  );
}

function limitText(amount: number | null): ReactNode {
  return amount === null ? <Missing>No limit</Missing> : formatDollars(amount);
}

function Player({ page }: { page: PlayerPage }) {
  const { profile, record, responsibleGaming: rg } = page;
  // What the suspend dialog of the USERS tab takes, from the page's own view of the player.
  const asAdminUser: AdminUser = {
    id: profile.id,
    username: profile.username,
    balance: profile.balance,
    isAdmin: profile.isAdmin,
    email: profile.email,
    phoneNumber: profile.phoneNumber,
    createdAt: profile.createdAt,
    suspension: profile.suspension,
    playBreak: profile.playBreak,
  };
  const opponentOf = (challenge: PlayerPage['challenges'][number]) =>
    challenge.creatorId === profile.id ? challenge.acceptor : challenge.creator;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center gap-2">
        {page.deleted && <Badge variant="neutral">Account closed</Badge>}
        {profile.isAdmin && <Badge>Admin</Badge>}
        {profile.suspension && <Badge variant="danger">Suspended</Badge>}
        {profile.playBreak && <Badge variant="warning">On a break from play</Badge>}
        {profile.moneyLock && <Badge variant="danger">Money locked</Badge>}
        {!page.deleted &&
          !profile.isAdmin &&
          (profile.suspension ? (
            <UnsuspendButton user={asAdminUser} />
          ) : (
            <SuspendUserDialog user={asAdminUser} />
          ))}
      </div>
      {profile.suspension && (
        <p className="text-sm text-slate-300">Suspension reason: {profile.suspension.reason}</p>
      )}
      {profile.moneyLock && (
        <MoneyLockNotice
          userId={profile.id}
          lock={profile.moneyLock}
          debt={profile.debt}
          closed={page.deleted}
        />
      )}

      <section aria-labelledby="profile-title" className="space-y-3">
        <h2 id="profile-title" className="font-display text-sm font-bold tracking-wider text-white">
          PROFILE AND STATE
        </h2>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          <Fact label="Balance">{formatDollars(profile.balance)}</Fact>
          <Fact label="Available">{formatDollars(profile.available)}</Fact>
          <Fact label="Under review">{formatDollars(profile.underReview)}</Fact>
          <Fact label="Debt">{formatDollars(profile.debt)}</Fact>
          <Fact label="Joined">{formatDateTime(profile.createdAt)}</Fact>
          <Fact label="E-mail">
            {profile.email ?? <Missing />}
            {profile.email && !profile.emailVerified && <Missing> (not verified)</Missing>}
          </Fact>
          <Fact label="Phone">{profile.phoneNumber ?? <Missing />}</Fact>
          <Fact label="State">{profile.state ?? <Missing />}</Fact>
          <Fact label="Two-factor">{profile.twoFactorEnabled ? 'On' : 'Off'}</Fact>
          <Fact label="ID verification">
            <span className="capitalize">{page.verification.status}</span>
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="limits-title" className="space-y-3">
        <h2 id="limits-title" className="font-display text-sm font-bold tracking-wider text-white">
          LIMITS AND EXCLUSIONS
        </h2>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Fact label="Daily deposits">{limitText(rg.limits.daily.amount)}</Fact>
          <Fact label="Weekly deposits">{limitText(rg.limits.weekly.amount)}</Fact>
          <Fact label="Monthly deposits">{limitText(rg.limits.monthly.amount)}</Fact>
          <Fact label="Break from play">
            {rg.playBreak ? (
              `${rg.playBreak.kind.replace('_', ' ')} until ${formatDateTime(rg.playBreak.until)}`
            ) : (
              <Missing>None</Missing>
            )}
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="record-title" className="space-y-3">
        <h2 id="record-title" className="font-display text-sm font-bold tracking-wider text-white">
          RECORD
        </h2>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Fact label="Played">{record.played}</Fact>
          <Fact label="Won">{record.won}</Fact>
          <Fact label="Lost">{record.lost}</Fact>
          <Fact label="Disputes opened">{record.disputesOpened}</Fact>
          <Fact label="Disputes lost">{record.disputesLost}</Fact>
          <Fact label="No-shows">{record.noShows}</Fact>
          <Fact label="Cancelled">{record.cancelled}</Fact>
        </dl>
      </section>

      <ListSection
        title="CHALLENGES"
        empty={page.challenges.length === 0}
        headers={[
          { label: 'Challenge' },
          { label: 'Game' },
          { label: 'Opponent' },
          { label: 'Status' },
          { label: 'Stake', numeric: true },
          { label: 'Created' },
        ]}
      >
        {page.challenges.map((challenge) => (
          <tr key={challenge.id}>
            <th scope="row" className={`${cell} text-left font-medium`}>
              #{challenge.id}
            </th>
            <td className={cell}>{challenge.game}</td>
            <td className={cell}>
              {opponentOf(challenge)?.username ?? <Missing>None yet</Missing>}
            </td>
            <td className={`${cell} capitalize`}>
              {challenge.status}
              {challenge.winnerId === profile.id && ' (won)'}
            </td>
            <td className={numberCell}>{formatDollars(challenge.amount)}</td>
            <td className={cell}>{formatDateTime(challenge.createdAt)}</td>
          </tr>
        ))}
      </ListSection>

      <ListSection
        title="TRANSACTIONS"
        empty={page.transactions.length === 0}
        headers={[
          { label: 'When' },
          { label: 'Kind' },
          { label: 'Amount', numeric: true },
          { label: 'Balance after', numeric: true },
        ]}
      >
        {page.transactions.map((transaction) => (
          <tr key={transaction.id}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {formatDateTime(transaction.createdAt)}
            </th>
            <td className={cell}>{transaction.kind.replaceAll('_', ' ')}</td>
            <td className={numberCell}>{formatSignedDollars(transaction.amount)}</td>
            <td className={numberCell}>{formatDollars(transaction.balanceAfter)}</td>
          </tr>
        ))}
      </ListSection>

      <ListSection
        title="PAYMENTS"
        empty={page.payments.length === 0}
        headers={[
          { label: 'When' },
          { label: 'Method' },
          { label: 'Status' },
          { label: 'Requested', numeric: true },
          { label: 'Credited', numeric: true },
        ]}
      >
        {page.payments.map((payment) => (
          <tr key={payment.id}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {formatDateTime(payment.createdAt)}
            </th>
            <td className={cell}>
              {payment.method} ({payment.provider})
            </td>
            <td className={`${cell} capitalize`}>{payment.status.replace('_', ' ')}</td>
            <td className={numberCell}>{formatDollars(payment.requestedAmount)}</td>
            <td className={numberCell}>
              {payment.creditedAmount === null ? (
                <Missing />
              ) : (
                formatDollars(payment.creditedAmount)
              )}
            </td>
          </tr>
        ))}
      </ListSection>

      <ListSection
        title="PAYOUTS"
        empty={page.payouts.length === 0}
        headers={[
          { label: 'When' },
          { label: 'Method' },
          { label: 'Status' },
          { label: 'Amount', numeric: true },
        ]}
      >
        {page.payouts.map((payout) => (
          <tr key={payout.id}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {formatDateTime(payout.createdAt)}
            </th>
            <td className={cell}>{payout.paymentMethod.replace('_', ' ')}</td>
            <td className={`${cell} capitalize`}>{payout.status}</td>
            <td className={numberCell}>{formatDollars(payout.amount)}</td>
          </tr>
        ))}
      </ListSection>

      <ListSection
        title="SESSIONS"
        empty={page.sessions.length === 0}
        headers={[
          { label: 'Browser' },
          { label: 'Address' },
          { label: 'Signed in' },
          { label: 'Last seen' },
        ]}
      >
        {page.sessions.map((session) => (
          <tr key={session.id}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              {session.browser ?? <Missing>Unknown</Missing>}
            </th>
            <td className={cell}>
              {session.address ?? <Missing>Unknown</Missing>}
              {session.place && (
                <span className="block text-xs text-slate-400">{session.place}</span>
              )}
            </td>
            <td className={cell}>{formatDateTime(session.createdAt)}</td>
            <td className={cell}>{formatDateTime(session.lastSeenAt)}</td>
          </tr>
        ))}
      </ListSection>

      <DeviceLinksSection player={profile} links={page.deviceLinks} />

      <section aria-labelledby="notes-title" className="space-y-3">
        <h2 id="notes-title" className="font-display text-sm font-bold tracking-wider text-white">
          ADMIN NOTES
        </h2>
        {page.notes.length === 0 ? (
          <p className="text-sm text-slate-400">No notes yet.</p>
        ) : (
          <ul className="space-y-2">
            {page.notes.map((note) => (
              <li key={note.id} className="rounded-lg border border-ink-700 bg-ink-900/60 p-3">
                <p className="text-sm whitespace-pre-wrap text-slate-100">{note.body}</p>
                <p className="mt-1 text-xs text-slate-400">
                  {note.author.username}, {formatDateTime(note.createdAt)}
                </p>
              </li>
            ))}
          </ul>
        )}
        <NoteForm userId={profile.id} />
      </section>
    </div>
  );
}

function PlayerLoader({ id }: { id: number }) {
  const player = usePlayer(id);
  if (player.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading the player" />
      </div>
    );
  }
  if (player.isError) {
    const notFound = player.error instanceof ApiError && player.error.status === 404;
    return (
      <EmptyState
        icon={TriangleAlert}
        title={notFound ? 'PLAYER NOT FOUND' : 'COULD NOT LOAD THE PLAYER'}
        description={
          player.error instanceof ApiError ? player.error.message : 'Please refresh the page.'
        }
      />
    );
  }
  return (
    <>
      <PageHeader
        eyebrow={`PLAYER #${player.data.profile.id}`}
        title={player.data.profile.username}
        description="Everything about one player, newest first."
      />
      <Player page={player.data} />
    </>
  );
}

/** /admin/players/{id}: one player whole, for admins (docs/operator-tools.md). */
export function AdminPlayerPage({ id, user }: { id: string; user: PublicUser }) {
  if (!user.isAdmin) return <AccessDenied />;
  const playerId = Number(id);
  return (
    <div className="space-y-4">
      <Link
        href="/admin"
        className="inline-flex items-center gap-1.5 text-sm whitespace-nowrap text-slate-300 hover:text-white"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        ADMIN DASHBOARD
      </Link>
      {Number.isSafeInteger(playerId) && playerId > 0 ? (
        <PlayerLoader id={playerId} />
      ) : (
        <EmptyState icon={TriangleAlert} title="PLAYER NOT FOUND" description="No such player." />
      )}
    </div>
  );
}
