import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Gavel } from 'lucide-react';
import {
  resolveDisputeBodySchema,
  type AdminDispute,
  type DisputeOutcome,
  type ResolveDisputeBody,
} from '#shared/contracts/admin.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { Field, FieldError } from '#client/components/ui/field.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { cn } from '#client/lib/cn.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { formatDollars } from '#client/lib/format.ts';
import { useEvidence } from '#client/features/challenges/api/fair-play.ts';
import { EvidenceColumns } from '#client/features/challenges/components/fair-play-panels.tsx';
import { useResolveDispute } from '../api/resolve-dispute.ts';
import { playerName } from '../lib/challenge-display.ts';

function outcomeLabels(dispute: AdminDispute): Record<DisputeOutcome, string> {
  return {
    creator: `Award to ${playerName(dispute.creator)} (creator)`,
    acceptor: `Award to ${playerName(dispute.acceptor)} (acceptor)`,
    refund: `Refund both players (${formatDollars(dispute.amount)} each)`,
  };
}

const OUTCOMES: readonly DisputeOutcome[] = ['creator', 'acceptor', 'refund'];

function ResolveDisputeForm({ dispute, onDone }: { dispute: AdminDispute; onDone: () => void }) {
  const groupId = useId();
  const resolve = useResolveDispute();
  const labels = outcomeLabels(dispute);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResolveDisputeBody>({
    resolver: zodResolver(resolveDisputeBodySchema),
    defaultValues: { note: '' },
  });

  const onSubmit = handleSubmit((values) =>
    resolve.mutate(
      { challengeId: dispute.id, ...values },
      {
        onSuccess: onDone,
        onError: (error) => applyServerFieldErrors(error, setError, ['outcome', 'note']),
      },
    ),
  );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <fieldset
        className="space-y-2"
        aria-describedby={errors.outcome ? `${groupId}-error` : undefined}
      >
        <legend className="mb-2 text-sm font-medium text-slate-200">Decision</legend>
        {OUTCOMES.map((outcome) => (
          <label
            key={outcome}
            className={cn(
              'flex cursor-pointer items-center gap-3 rounded-md border border-ink-600 bg-ink-900/70 px-3 py-3 text-sm text-slate-100',
              'has-[:checked]:border-accent has-[:checked]:bg-accent/10 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent/60',
            )}
          >
            <input
              type="radio"
              value={outcome}
              className="size-4 accent-(--accent)"
              {...register('outcome')}
            />
            {labels[outcome]}
          </label>
        ))}
        {errors.outcome?.message && (
          <FieldError id={`${groupId}-error`}>{errors.outcome.message}</FieldError>
        )}
      </fieldset>
      <Field
        label="Note"
        error={errors.note?.message}
        hint="Why you decided this way. Kept in the audit log."
      >
        {(control) => <Textarea {...control} rows={3} {...register('note')} />}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={resolve.isPending}>
        <Gavel aria-hidden="true" />
        {resolve.isPending ? 'RESOLVING...' : 'CONFIRM DECISION'}
      </Button>
    </form>
  );
}

/** Both players' statements and files, side by side, above the decision (docs/fair-play.md). */
function DisputeEvidence({ dispute }: { dispute: AdminDispute }) {
  const evidence = useEvidence(dispute.id, true);
  return (
    <section aria-label="Evidence" className="space-y-2">
      <h3 className="font-display text-xs font-bold tracking-widest text-accent">EVIDENCE</h3>
      {evidence.data ? (
        <EvidenceColumns challenge={dispute} evidence={evidence.data} />
      ) : (
        <p className="text-sm text-slate-300">
          {evidence.isError ? 'Could not load the evidence.' : 'Loading evidence…'}
        </p>
      )}
    </section>
  );
}

/** The admin's final word on a disputed match: either player wins, or both are refunded. */
export function ResolveDisputeDialog({ dispute }: { dispute: AdminDispute }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Gavel aria-hidden="true" />
          RESOLVE
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl!">
        <DialogHeader>
          <DialogTitle>Resolve Dispute</DialogTitle>
          <DialogDescription>
            {dispute.game}, {playerName(dispute.creator)} vs {playerName(dispute.acceptor)}.{' '}
            {dispute.stakesInEscrow
              ? 'Both stakes are still in escrow.'
              : dispute.heldForReview
                ? 'The reported winner’s credit is still held for review, so any decision can be paid in full.'
                : 'The result was already paid out: deciding against that winner reverses the payout.'}{' '}
            The decision is final.
          </DialogDescription>
        </DialogHeader>
        <DisputeEvidence dispute={dispute} />
        <ResolveDisputeForm dispute={dispute} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
