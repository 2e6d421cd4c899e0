import { useEffect, useId, useRef, useState } from 'react';
import { Pencil, ShieldCheck, UserCheck, Users } from 'lucide-react';
import type { AdminUser } from '#shared/contracts/wallet.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useAdminUsers } from '../api/get-admin-users.ts';
import { useUnsuspendUser } from '../api/unsuspend-user.ts';
import { DeleteUserButton } from './delete-user-button.tsx';
import { Fact, Missing, rowClasses } from './facts.tsx';
import { ModifyBalanceForm } from './modify-balance-form.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';
import { SuspendUserDialog } from './suspend-user-dialog.tsx';

export function UnsuspendButton({ user }: { user: AdminUser }) {
  const unsuspend = useUnsuspendUser();
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={unsuspend.isPending}
      onClick={() => unsuspend.mutate(user.id)}
    >
      <UserCheck aria-hidden="true" />
      {unsuspend.isPending ? 'LIFTING...' : 'UNSUSPEND'}
    </Button>
  );
}

function UserRow({ user, viewerId }: { user: AdminUser; viewerId: number }) {
  const titleId = useId();
  const [modifying, setModifying] = useState(false);
  const modifyButton = useRef<HTMLButtonElement>(null);
  const wasModifying = useRef(false);
  // Closing the inline form (Update or Cancel) puts the keyboard back where it was.
  useEffect(() => {
    if (wasModifying.current && !modifying) modifyButton.current?.focus();
    wasModifying.current = modifying;
  }, [modifying]);
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3
            id={titleId}
            className="font-display text-base font-bold tracking-wide break-all text-white"
          >
            {user.username}
          </h3>
          {user.isAdmin && (
            <Badge>
              <ShieldCheck aria-hidden="true" className="size-3" />
              ADMIN
            </Badge>
          )}
          {user.id === viewerId && <Badge variant="neutral">YOU</Badge>}
          {user.suspension && <Badge variant="danger">SUSPENDED</Badge>}
          {user.playBreak && (
            <Badge variant="neutral">
              {user.playBreak.kind === 'time_out' ? 'TIME-OUT' : 'SELF-EXCLUDED'}
            </Badge>
          )}
        </div>
        <p className="font-display text-lg font-black text-white tabular-nums">
          <span className="sr-only">Balance: </span>
          {formatDollars(user.balance)}
        </p>
      </header>
      <dl className="grid gap-x-4 gap-y-3 sm:grid-cols-3">
        <Fact label="Email">{user.email ?? <Missing>Not provided</Missing>}</Fact>
        <Fact label="Phone">{user.phoneNumber ?? <Missing>Not provided</Missing>}</Fact>
        <Fact label="Joined">{formatDateTime(user.createdAt)}</Fact>
        {user.suspension && (
          <Fact label="Suspension" wide>
            {user.suspension.reason}
            <span className="block text-slate-400">
              {user.suspension.until
                ? `Until ${formatDateTime(user.suspension.until)}`
                : 'Until lifted'}
            </span>
          </Fact>
        )}
        {user.playBreak && (
          <Fact label={user.playBreak.kind === 'time_out' ? 'Time-out' : 'Self-exclusion'} wide>
            Taken by the player, until {formatDateTime(user.playBreak.until)}
            <span className="block text-slate-400">
              No deposits, new challenges or acceptances; it cannot be ended early.
            </span>
          </Fact>
        )}
      </dl>
      {modifying ? (
        <ModifyBalanceForm user={user} onDone={() => setModifying(false)} />
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button ref={modifyButton} variant="outline" size="sm" onClick={() => setModifying(true)}>
            <Pencil aria-hidden="true" />
            MODIFY BALANCE
          </Button>
          {/* The server refuses to suspend admins and to delete oneself; neither is offered. */}
          {!user.isAdmin &&
            (user.suspension ? <UnsuspendButton user={user} /> : <SuspendUserDialog user={user} />)}
          {user.id !== viewerId && <DeleteUserButton user={user} />}
        </div>
      )}
    </article>
  );
}

/**
 * docs/product.md#screens USERS: every account with its balance, ADMIN tag, balance changes and
 * deletion; and its suspension, which an admin sets or lifts here (docs/fair-play.md).
 */
export function UsersTab({ viewerId }: { viewerId: number }) {
  const users = useAdminUsers();
  return (
    <PagedList
      query={pagedQuery(users)}
      items={users.data?.pages.flat() ?? []}
      label="Users"
      empty={{ icon: Users, title: 'NO USERS FOUND' }}
      getKey={(user) => user.id}
      renderItem={(user) => <UserRow user={user} viewerId={viewerId} />}
    />
  );
}
