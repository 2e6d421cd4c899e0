import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, CircleSlash } from 'lucide-react';
import {
  resolveReportBodySchema,
  type AdminReport,
  type ReportAction,
  type ResolveReportBody,
} from '#shared/contracts/reports.ts';
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
import { useResolveReport } from '../api/resolve-report.ts';

const ACTIONS: Record<
  ReportAction,
  { trigger: string; title: string; confirm: string; icon: typeof CircleCheck; hint: string }
> = {
  dismiss: {
    trigger: 'DISMISS',
    title: 'Dismiss report',
    confirm: 'DISMISS REPORT',
    icon: CircleSlash,
    hint: 'Why nothing needs doing. Kept in the audit log.',
  },
  actioned: {
    trigger: 'MARK ACTIONED',
    title: 'Mark report actioned',
    confirm: 'MARK ACTIONED',
    icon: CircleCheck,
    hint: 'What you did about it (a suspension, a warning). Kept in the audit log.',
  },
};

function ResolveReportForm({
  report,
  action,
  onDone,
}: {
  report: AdminReport;
  action: ReportAction;
  onDone: () => void;
}) {
  const resolve = useResolveReport();
  const { confirm, icon: Icon, hint } = ACTIONS[action];
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResolveReportBody>({
    resolver: zodResolver(resolveReportBodySchema),
    defaultValues: { action, note: '' },
  });
  const onSubmit = handleSubmit((values) =>
    resolve.mutate(
      { reportId: report.id, ...values },
      {
        onSuccess: onDone,
        onError: (error) => applyServerFieldErrors(error, setError, ['note']),
      },
    ),
  );
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field label="Note" error={errors.note?.message} hint={hint}>
        {(control) => <Textarea {...control} rows={3} {...register('note')} />}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={resolve.isPending}>
        <Icon aria-hidden="true" />
        {resolve.isPending ? 'SAVING...' : confirm}
      </Button>
    </form>
  );
}

/** Closes an open report one way or the other, with a note for the audit log. */
export function ResolveReportDialog({
  report,
  action,
}: {
  report: AdminReport;
  action: ReportAction;
}) {
  const [open, setOpen] = useState(false);
  const { trigger, title, icon: Icon } = ACTIONS[action];
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant={action === 'dismiss' ? 'outline' : 'primary'} size="sm">
          <Icon aria-hidden="true" />
          {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            {report.reporter.username}’s report about {report.reported.username}: “{report.reason}”
          </DialogDescription>
        </DialogHeader>
        <ResolveReportForm report={report} action={action} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
