import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserX } from 'lucide-react';
import { ADMIN_MESSAGES, suspendUserBodySchema } from '#shared/contracts/admin.ts';
import type { AdminUser } from '#shared/contracts/wallet.ts';
import { z } from '#shared/validation.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
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
type SuspendFormValues = z.input<typeof suspendFormSchema>;
type SuspendFormOutput = z.output<typeof suspendFormSchema>;

function SuspendForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const suspend = useSuspendUser();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SuspendFormValues, unknown, SuspendFormOutput>({
    resolver: zodResolver(suspendFormSchema),
    defaultValues: { reason: '', until: '' },
  });
  const onSubmit = handleSubmit(({ reason, until }) =>
    suspend.mutate(
      { userId: user.id, reason, ...(until ? { until } : {}) },
      {
        onSuccess: onDone,
        onError: (error) => applyServerFieldErrors(error, setError, ['reason', 'until']),
      },
    ),
  );
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field
        label="Reason"
        error={errors.reason?.message}
        hint="The player sees this. Kept in the audit log."
      >
        {(control) => <Textarea {...control} rows={3} {...register('reason')} />}
      </Field>
      <Field
        label="Until (optional)"
        error={errors.until?.message}
        hint="In your time zone. Leave empty to suspend until you lift it."
      >
        {(control) => <Input {...control} type="datetime-local" {...register('until')} />}
      </Field>
      <Button
        type="submit"
        variant="destructive"
        size="lg"
        className="w-full"
        disabled={suspend.isPending}
      >
        <UserX aria-hidden="true" />
        {suspend.isPending ? 'SUSPENDING...' : 'SUSPEND USER'}
      </Button>
    </form>
  );
}

/** Suspends a player (DESIGN §10): a reason they will see, and an optional end. */
export function SuspendUserDialog({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-amber-300 hover:text-amber-200">
          <UserX aria-hidden="true" />
          SUSPEND
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Suspend {user.username}</DialogTitle>
          <DialogDescription>
            They can still sign in, see their challenges and withdraw their available balance, but
            not deposit, create or accept challenges. Their open challenges are cancelled and the
            stakes refunded; accepted matches stay.
          </DialogDescription>
        </DialogHeader>
        <SuspendForm user={user} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
