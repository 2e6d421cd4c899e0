import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreditCard, Undo2 } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import {
  CARD_REFUND_STATUS_LABELS,
  cardRefundBodySchema,
  type CardRefundView,
} from '#shared/contracts/card-refunds.ts';
import { centsToDecimalString, dollarNumberToCents } from '#shared/money.ts';
import type { z } from '#shared/validation.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { CardTitle } from '#client/components/ui/card.tsx';
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
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { usePayoutLimits } from '../api/get-payout-limits.ts';
import { useCardRefunds, useRefundToCard } from '../api/card-refunds.ts';

/** 128 random bits as hex: `getRandomValues` works outside secure contexts too. */
const newRequestKey = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');

type FormValues = z.input<typeof cardRefundBodySchema>;
type FormOutput = z.output<typeof cardRefundBodySchema>;

function RefundForm({
  user,
  refundable,
  onDone,
}: {
  user: PublicUser;
  refundable: number;
  onDone: () => void;
}) {
  const refund = useRefundToCard(user.id);
  // The form lives as long as one opening of the dialog: its key makes a resend a replay.
  const [requestKey] = useState(newRequestKey);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues, unknown, FormOutput>({
    resolver: zodResolver(cardRefundBodySchema),
    defaultValues: { amount: centsToDecimalString(dollarNumberToCents(refundable)) },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await refund.mutateAsync({ ...values, requestKey });
      onDone();
    } catch (error) {
      applyServerFieldErrors(error, setError, ['amount']);
    }
  });
  const busy = isSubmitting || refund.isPending;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field
        label="Amount ($)"
        error={errors.amount?.message}
        hint={`Up to ${formatDollars(refundable)}, the card money not yet cleared.`}
      >
        {(control) => (
          <Input
            {...control}
            type="number"
            inputMode="decimal"
            min="0.01"
            max={centsToDecimalString(dollarNumberToCents(refundable))}
            step="0.01"
            {...register('amount')}
          />
        )}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        <Undo2 aria-hidden="true" />
        {busy ? 'SUBMITTING...' : 'REFUND TO CARD'}
      </Button>
    </form>
  );
}

/**
 * REFUND TO CARD (docs/chargebacks.md): card money not yet cleared goes back to the cards it came
 * from, newest payment first. Shown while there is any.
 */
export function CardRefundDialog({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  const limits = usePayoutLimits();
  const refundable = limits.data?.refundableToCard ?? 0;
  // Kept while open: a refetch that leaves nothing refundable does not pull it from under you.
  if (refundable <= 0 && !open) return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div className="space-y-2">
        <DialogTrigger asChild>
          <Button size="lg" variant="outline" className="w-full">
            <CreditCard aria-hidden="true" />
            REFUND TO CARD
          </Button>
        </DialogTrigger>
        <p className="text-sm text-slate-400">
          {formatDollars(refundable)} came by card and can go back to that card now.
        </p>
      </div>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Refund to Card</DialogTitle>
          <DialogDescription>
            The amount leaves your balance now and goes back to the card you paid with.
          </DialogDescription>
        </DialogHeader>
        <RefundForm user={user} refundable={refundable} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

const STATUS_VARIANTS: Record<CardRefundView['status'], BadgeVariant> = {
  pending: 'warning',
  succeeded: 'success',
  failed: 'danger',
};

/** The player's refunds to their cards; nothing at all for a player who never made one. */
export function CardRefundHistory() {
  const refunds = useCardRefunds();
  if (!refunds.data || refunds.data.length === 0) return null;
  return (
    <section aria-labelledby="card-refunds-title" className="space-y-3">
      <CardTitle id="card-refunds-title">Card Refunds</CardTitle>
      <ul className="space-y-2">
        {refunds.data.map((refund) => (
          <li
            key={refund.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-ink-700 bg-ink-900/60 p-3"
          >
            <span className="font-semibold text-white tabular-nums">
              {formatDollars(refund.amount)}
            </span>
            <span className="text-sm text-slate-300">{formatDateTime(refund.createdAt)}</span>
            <Badge variant={STATUS_VARIANTS[refund.status]}>
              {CARD_REFUND_STATUS_LABELS[refund.status]}
            </Badge>
          </li>
        ))}
      </ul>
    </section>
  );
}
