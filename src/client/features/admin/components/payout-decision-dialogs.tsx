import { useId, useState } from 'react';
import { Ban, Send } from 'lucide-react';
import { PAYOUT_MESSAGES, type AdminPayoutView } from '#shared/contracts/payouts.ts';
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
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const fail = useFailPayout();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setReason('');
          setError(undefined);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-red-300 hover:text-red-200">
          <Ban aria-hidden="true" />
          FAIL
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Fail Payout</DialogTitle>
          <DialogDescription>
            {payoutSummary(payout)} will not be sent and the amount returns to their balance.
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="space-y-5"
          onSubmit={(event) => {
            event.preventDefault();
            const trimmed = reason.trim();
            if (!trimmed) {
              setError(PAYOUT_MESSAGES.reasonRequired);
              return;
            }
            setError(undefined);
            fail.mutate(
              { payoutId: payout.id, reason: trimmed },
              { onSuccess: () => setOpen(false) },
            );
          }}
        >
          <Field label="Reason" error={error} hint="The player sees this in their payout history.">
            {(control) => (
              <Textarea
                {...control}
                rows={3}
                maxLength={1000}
                value={reason}
                onChange={(event) => setReason(event.currentTarget.value)}
              />
            )}
          </Field>
          <Button
            type="submit"
            variant="destructive"
            size="lg"
            className="w-full"
            disabled={fail.isPending}
          >
            <Ban aria-hidden="true" />
            {fail.isPending ? 'SAVING...' : 'MARK AS FAILED'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
