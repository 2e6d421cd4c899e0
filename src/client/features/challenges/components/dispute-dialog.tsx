import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Flag } from 'lucide-react';
import { disputeBodySchema, type ChallengeView } from '#shared/contracts/challenges.ts';
import type { z } from '#shared/validation.ts';
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
import { Textarea } from '#client/components/ui/textarea.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { useDisputeChallenge, type DisputeInput } from '../api/dispute-challenge.ts';

function DisputeForm({ challenge, onDone }: { challenge: ChallengeView; onDone: () => void }) {
  const dispute = useDisputeChallenge(challenge.id);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<z.input<typeof disputeBodySchema>, unknown, DisputeInput>({
    resolver: zodResolver(disputeBodySchema),
    defaultValues: { reason: '' },
  });
  const onSubmit = handleSubmit((values) => {
    dispute.mutate(values, {
      onSuccess: onDone,
      onError: (error) => applyServerFieldErrors(error, setError, ['reason']),
    });
  });
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field label="What went wrong?" error={errors.reason?.message}>
        {(control) => <Textarea {...control} rows={4} {...register('reason')} />}
      </Field>
      <Button
        type="submit"
        variant="destructive"
        size="lg"
        className="w-full"
        disabled={dispute.isPending}
      >
        <Flag aria-hidden="true" />
        {dispute.isPending ? 'SENDING...' : 'SEND DISPUTE'}
      </Button>
    </form>
  );
}

/** The player who did not submit the result may contest it until the dispute window closes. */
export function DisputeDialog({ challenge }: { challenge: ChallengeView }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" className="border-red-400/70 text-red-300 hover:bg-red-400/10">
          <Flag aria-hidden="true" />
          DISPUTE RESULT
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Dispute Result</DialogTitle>
          <DialogDescription>
            An admin will review the match, the scores and the screenshot.
            {challenge.disputableUntil &&
              ` You can dispute until ${formatDateTime(challenge.disputableUntil)}.`}
          </DialogDescription>
        </DialogHeader>
        <DisputeForm challenge={challenge} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
