import { useId, useState } from 'react';
import { LogOut, TriangleAlert } from 'lucide-react';
import type { SessionView } from '#shared/contracts/account-security.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { pickFocusTarget, useFocusRecovery } from '#client/lib/focus-recovery.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { deviceName, useSessions } from '../api/get-sessions.ts';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions.ts';
import { useRevokeSession } from '../api/revoke-session.ts';

function SessionRow({ session }: { session: SessionView }) {
  const revoke = useRevokeSession();
  const name = deviceName(session);
  return (
    <li
      data-focus-key={session.id}
      className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 font-medium break-words text-slate-100">
          {name}
          {session.current && <Badge variant="success">This device</Badge>}
        </p>
        <p className="text-sm break-words text-slate-300">
          {session.place && <span className="block">{session.place}</span>}
          <span className="break-all">{session.address ?? 'Unknown address'}</span>
        </p>
        <p className="text-xs text-slate-400">
          Signed in <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
          {' · '}
          <span className="whitespace-nowrap">
            Last seen{' '}
            <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
          </span>
        </p>
      </div>
      {!session.current && (
        <Button
          variant="outline"
          size="sm"
          className="self-start sm:self-center"
          disabled={revoke.isPending}
          aria-label={revoke.isPending ? undefined : `SIGN OUT ${name}`}
          onClick={() => revoke.mutate(session)}
        >
          <LogOut aria-hidden="true" />
          {revoke.isPending ? 'SIGNING OUT...' : 'SIGN OUT'}
        </Button>
      )}
    </li>
  );
}

function SignOutEverywhereElse({ others }: { others: number }) {
  const [open, setOpen] = useState(false);
  const revokeOthers = useRevokeOtherSessions();
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="outline" className="w-full sm:w-auto" disabled={others === 0}>
          <LogOut aria-hidden="true" />
          SIGN OUT EVERYWHERE ELSE
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Sign out everywhere else?</AlertDialogTitle>
        <AlertDialogDescription>
          {others === 1 ? 'The other device' : `All ${others} other devices`} signed in to your
          account will be signed out at once. This device stays signed in.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel asChild>
            <Button variant="outline">CANCEL</Button>
          </AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={revokeOthers.isPending}
            onClick={() => revokeOthers.mutate(undefined, { onSuccess: () => setOpen(false) })}
          >
            {revokeOthers.isPending ? 'SIGNING OUT...' : 'SIGN THEM OUT'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * Devices (docs/accounts.md#account-security): every browser signed in to the account, with a way
 * to sign out each one but this, or all of them at once. When a row the keyboard was on goes, focus
 * moves to the row that took its place, or to what the card still offers.
 */
export function DevicesCard() {
  const titleId = useId();
  const sessions = useSessions();
  const focusRecovery = useFocusRecovery<HTMLDivElement>(pickFocusTarget);
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Devices</CardTitle>
        <CardDescription>
          Where your account is signed in. Sign out any device you do not recognise.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div {...focusRecovery} tabIndex={-1} className="space-y-5 outline-offset-4">
          {sessions.isPending ? (
            <div className="flex justify-center py-2">
              <Spinner label="Loading devices" />
            </div>
          ) : sessions.data ? (
            <>
              <ul aria-label="Signed-in devices" className="divide-y divide-ink-700">
                {sessions.data.map((session) => (
                  <SessionRow key={session.id} session={session} />
                ))}
              </ul>
              <SignOutEverywhereElse
                others={sessions.data.filter((session) => !session.current).length}
              />
            </>
          ) : (
            <p className="flex items-center gap-2 text-sm text-slate-300">
              <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
              The devices could not be loaded.
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
