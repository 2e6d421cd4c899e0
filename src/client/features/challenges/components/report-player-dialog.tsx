import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldAlert } from 'lucide-react';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { reportPlayerBodySchema } from '#shared/contracts/reports.ts';
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
import { Textarea } from '#client/components/ui/textarea.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { useReportPlayer } from '../api/report-player.ts';

const reportFormSchema = z.object({ reason: reportPlayerBodySchema.shape.reason });
type ReportFormValues = z.input<typeof reportFormSchema>;

function ReportForm({
  challenge,
  opponent,
  onDone,
}: {
  challenge: ChallengeView;
  opponent: string;
  onDone: () => void;
}) {
  const report = useReportPlayer();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ReportFormValues>({
    resolver: zodResolver(reportFormSchema),
    defaultValues: { reason: '' },
  });
  const onSubmit = handleSubmit(({ reason }) =>
    report.mutate(
      { username: opponent, reason, challengeId: challenge.id },
      {
        onSuccess: onDone,
        onError: (error) => applyServerFieldErrors(error, setError, ['reason']),
      },
    ),
  );
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field
        label="What happened?"
        error={errors.reason?.message}
        hint="Cheating, abuse, a fake screenshot… Be specific: an admin reads every report."
      >
        {(control) => <Textarea {...control} rows={4} {...register('reason')} />}
      </Field>
      <Button
        type="submit"
        variant="destructive"
        size="lg"
        className="w-full"
        disabled={report.isPending}
      >
        <ShieldAlert aria-hidden="true" />
        {report.isPending ? 'SENDING...' : 'SEND REPORT'}
      </Button>
    </form>
  );
}

/**
 * A player of a challenge reports their opponent to the admins (DESIGN §10); the report names
 * this challenge, so the admin can look at it.
 */
export function ReportPlayerDialog({
  challenge,
  opponent,
}: {
  challenge: ChallengeView;
  opponent: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="text-red-300 hover:text-red-200">
          <ShieldAlert aria-hidden="true" />
          REPORT PLAYER
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report {opponent}</DialogTitle>
          <DialogDescription>
            Tell the admins what {opponent} did in challenge #{challenge.id}. An admin will look
            into it.
          </DialogDescription>
        </DialogHeader>
        <ReportForm challenge={challenge} opponent={opponent} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
