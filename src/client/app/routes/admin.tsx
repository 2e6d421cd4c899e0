import { Link } from 'wouter';
import { ShieldX } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { AdminDashboard } from '#client/features/admin/components/admin-dashboard.tsx';

function AccessDenied() {
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
 * /admin, for admins only (SPEC §2, §6). A player never mounts the dashboard, so no admin call is
 * even attempted; the server refuses them anyway.
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
      <AdminDashboard viewerId={user.id} />
    </>
  );
}
