import { UserX } from 'lucide-react';
import { ADMIN_MESSAGES, suspendUserBodySchema } from '#shared/contracts/admin.ts';
import type { AdminUser } from '#shared/contracts/wallet.ts';
import { z } from '#shared/validation.ts';
import { ReasonDialog } from '#client/components/reason-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { useSuspendUser } from '../api/suspend-user.ts';

/**
 * The form's view of the body: `until` comes from a date-and-time field in the admin's own time
 * zone ('' for no end) and is sent as an instant. The server checks it is still ahead when the
 * suspension is made; checking here too saves a round trip for the common slip.
 */
const suspendFormSchema = z.object({
  reason: suspendUserBodySchema.shape.reason,
  until: z.string().transform((value, ctx) => {
    if (value === '') return undefined;
    const end = new Date(value);
    if (Number.isNaN(end.getTime())) {
      ctx.addIssue({ code: 'custom', message: ADMIN_MESSAGES.suspensionEndInvalid });
      return z.NEVER;
    }
    if (end.getTime() <= Date.now()) {
      ctx.addIssue({ code: 'custom', message: ADMIN_MESSAGES.suspensionEndPast });
      return z.NEVER;
    }
    return end.toISOString();
  }),
});
/** Suspends a player (docs/operator-tools.md): a reason they will see, and an optional end. */
export function SuspendUserDialog({ user }: { user: AdminUser }) {
  const suspend = useSuspendUser();
  return (
    <ReasonDialog
      trigger={
        <Button variant="ghost" size="sm" className="text-amber-300 hover:text-amber-200">
          <UserX aria-hidden="true" />
          SUSPEND
        </Button>
      }
      title={`Suspend ${user.username}`}
      description="They can still sign in, see their challenges and withdraw their available balance, but not deposit, create or accept challenges. Their open challenges are cancelled and the stakes refunded; accepted matches stay."
      schema={suspendFormSchema}
      defaultValues={{ reason: '', until: '' }}
      fields={[
        { name: 'reason', label: 'Reason', hint: 'The player sees this. Kept in the audit log.' },
        {
          name: 'until',
          label: 'Until (optional)',
          hint: 'In your time zone. Leave empty to suspend until you lift it.',
          kind: 'datetime-local',
        },
      ]}
      submit={{ label: 'SUSPEND USER', pendingLabel: 'SUSPENDING...', icon: UserX }}
      pending={suspend.isPending}
      onSubmit={({ reason, until }, callbacks) =>
        suspend.mutate({ userId: user.id, reason, ...(until ? { until } : {}) }, callbacks)
      }
    />
  );
}
