import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ShieldAlert, ShieldX } from 'lucide-react';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { ledgerHealthQueryOptions } from '#client/features/admin/api/get-ledger-health.ts';
import { AdminDashboard } from '#client/features/admin/components/admin-dashboard.tsx';
import { TwoFactorCard } from '#client/features/profile/components/two-factor-card.tsx';

export function AccessDenied() {
  return (
    <div className="flex min-h-[50dvh] flex-col items-center justify-center gap-5 text-center">
      <span className="flex size-16 items-center justify-center rounded-full border border-red-400/50 bg-red-400/10 text-red-300">
        <ShieldX aria-hidden="true" className="size-8" />
      </span>
      <h1 className="font-display text-lg font-black tracking-widest text-white sm:text-xl">
        ACCESS DENIED - ADMIN PRIVILEGES REQUIRED
      </h1>
      <Button asChild variant="outline">
        <Link href="/">BACK TO HOME</Link>
      </Button>
    </div>
  );
}

/**
 * Where the server requires two-factor sign-in of admins (docs/accounts.md#account-security) and
 * this admin has none, every admin call answers TWO_FACTOR_SETUP_REQUIRED: the page asks one of
 * them first (the ledger check the dashboard opens with anyway) and shows the set-up instead of the
 * tabs. The tabs come once the new recovery codes are saved and the call is let through.
 */
function AdminGate({ user }: { user: PublicUser }) {
  const probe = useQuery({ ...ledgerHealthQueryOptions(), enabled: !user.twoFactorEnabled });
  const refused =
    probe.error instanceof ApiError && probe.error.code === 'TWO_FACTOR_SETUP_REQUIRED';
  if (refused) {
    return (
      <div className="mx-auto max-w-xl space-y-6">
        <p
          role="alert"
          className="flex items-start gap-3 rounded-xl border border-amber-400/50 bg-amber-400/10 p-4 text-amber-50"
        >
          <ShieldAlert aria-hidden="true" className="size-5 shrink-0 text-amber-300" />
          {SECURITY_MESSAGES.adminNeedsTwoFactor}
        </p>
        <TwoFactorCard user={user} onFinished={() => void probe.refetch()} />
      </div>
    );
  }
  if (!user.twoFactorEnabled && probe.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Loading the admin dashboard" />
      </div>
    );
  }
  return <AdminDashboard viewerId={user.id} />;
}

/**
 * /admin, for admins only (docs/product.md#screens, docs/product.md#roles). A player never mounts
 * the dashboard, so no admin call is even attempted; the server refuses them anyway.
 */
export function AdminPage({ user }: { user: PublicUser }) {
  if (!user.isAdmin) return <AccessDenied />;
  return (
    <>
      <PageHeader
        eyebrow="OPERATIONS"
        title="ADMIN DASHBOARD"
        description="Manage player accounts, payouts, disputes and ID checks."
      />
      <AdminGate user={user} />
    </>
  );
}
