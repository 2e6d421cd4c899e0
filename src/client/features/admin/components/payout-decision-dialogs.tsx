import { useId, useState } from 'react';
import { Ban, Send } from 'lucide-react';
import { failPayoutBodySchema, type AdminPayoutView } from '#shared/contracts/payouts.ts';
import { ReasonDialog } from '#client/components/reason-dialog.tsx';
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
import { formatDollars } from '#client/lib/format.ts';
import { useCompletePayout } from '../api/complete-payout.ts';
import { useFailPayout } from '../api/fail-payout.ts';

function payoutSummary(payout: AdminPayoutView): string {
  return `${formatDollars(payout.amount)} to ${payout.username}`;
}

/** Confirms that the crypto was sent; an optional note records, say, the transaction id. */
export function CompletePayoutDialog({ payout }: { payout: AdminPayoutView }) {
  const formId = useId();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const complete = useCompletePayout();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setNote('');
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm">
          <Send aria-hidden="true" />
          COMPLETE
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Complete Payout</DialogTitle>
          <DialogDescription>
            Send {payoutSummary(payout)} first, then mark it as sent. The held amount leaves the
            platform for good.
          </DialogDescription>
        </DialogHeader>
        <form
          id={formId}
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            complete.mutate(
              { payoutId: payout.id, note: note.trim() || undefined },
              { onSuccess: () => setOpen(false) },
            );
          }}
        >
          <p className="rounded-md border border-ink-600 bg-ink-900/70 p-3 font-mono text-xs break-all text-slate-200">
            {payout.paymentDetails}
          </p>
          <Field label="Transaction ID or note (optional)">
            {(control) => (
              <Input
                {...control}
                type="text"
                maxLength={1000}
                autoComplete="off"
                value={note}
                onChange={(event) => setNote(event.currentTarget.value)}
              />
            )}
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={complete.isPending}>
            <Send aria-hidden="true" />
            {complete.isPending ? 'SAVING...' : 'MARK AS SENT'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Fails a payout with a reason the player will read; the amount returns to their balance. */
export function FailPayoutDialog({ payout }: { payout: AdminPayoutView }) {
  const fail = useFailPayout();
  return (
    <ReasonDialog
      trigger={
        <Button variant="ghost" size="sm" className="text-red-300 hover:text-red-200">
          <Ban aria-hidden="true" />
          FAIL
        </Button>
      }
      title="Fail Payout"
      description={`${payoutSummary(payout)} will not be sent and the amount returns to their balance.`}
      schema={failPayoutBodySchema}
      defaultValues={{ reason: '' }}
      fields={[
        { name: 'reason', label: 'Reason', hint: 'The player sees this in their payout history.' },
      ]}
      submit={{ label: 'MARK AS FAILED', pendingLabel: 'SAVING...', icon: Ban }}
      pending={fail.isPending}
      onSubmit={({ reason }, callbacks) => fail.mutate({ payoutId: payout.id, reason }, callbacks)}
    />
  );
}
