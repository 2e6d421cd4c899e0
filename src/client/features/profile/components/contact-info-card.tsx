import { useId, type ReactNode } from 'react';
import { BadgeCheck, MailWarning, Send } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { useResendVerification } from '../api/resend-verification.ts';
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

/**
 * The address, and whether a mailed link proved it (docs/accounts.md#account-security): only a
 * verified address gets mail, so an unverified one offers to send the link again.
 */
function EmailValue({ email, verified }: { email: string; verified: boolean }) {
  const resend = useResendVerification();
  return (
    <>
      <span className="block">{email}</span>
      <span className="mt-2 flex flex-wrap items-center gap-2 sm:justify-end">
        {verified ? (
          <Badge variant="success">
            <BadgeCheck aria-hidden="true" className="size-3.5" />
            Verified
          </Badge>
        ) : (
          <>
            <Badge variant="warning">
              <MailWarning aria-hidden="true" className="size-3.5" />
              Not verified
            </Badge>
            <Button
              variant="outline"
              size="sm"
              disabled={resend.isPending}
              aria-label={resend.isPending ? undefined : 'RESEND verification link'}
              onClick={() => resend.mutate()}
            >
              <Send aria-hidden="true" />
              {resend.isPending ? 'SENDING...' : 'RESEND'}
            </Button>
          </>
        )}
      </span>
    </>
  );
}

/**
 * docs/product.md#screens: username, phone and email (or Not provided), and the Update Email
 * dialog.
 */
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
          <ContactRow label="Email">
            {user.email ? (
              <EmailValue email={user.email} verified={user.emailVerified} />
            ) : (
              <NotProvided />
            )}
          </ContactRow>
        </dl>
        <UpdateEmailDialog currentEmail={user.email} />
      </CardContent>
    </Card>
  );
}
