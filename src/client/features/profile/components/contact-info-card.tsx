import { useId, type ReactNode } from 'react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { UpdateEmailDialog } from './update-email-dialog.tsx';

function ContactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 border-b border-ink-700 py-3 last:border-0 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className="min-w-0 font-medium break-words text-slate-100 sm:text-right">{children}</dd>
    </div>
  );
}

function NotProvided() {
  return <span className="font-normal text-slate-400 italic">Not provided</span>;
}

/** SPEC §2: username, phone and email (or Not provided), and the Update Email dialog. */
export function ContactInfoCard({ user }: { user: PublicUser }) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Contact Info</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl>
          <ContactRow label="Username">{user.username}</ContactRow>
          <ContactRow label="Phone">{user.phoneNumber ?? <NotProvided />}</ContactRow>
          <ContactRow label="Email">{user.email ?? <NotProvided />}</ContactRow>
        </dl>
        <UpdateEmailDialog currentEmail={user.email} />
      </CardContent>
    </Card>
  );
}
