import { CircleCheck, CircleSlash } from 'lucide-react';
import {
  resolveReportBodySchema,
  type AdminReport,
  type ReportAction,
} from '#shared/contracts/reports.ts';
import { ReasonDialog } from '#client/components/reason-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
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

/** Closes an open report one way or the other, with a note for the audit log. */
export function ResolveReportDialog({
  report,
  action,
}: {
  report: AdminReport;
  action: ReportAction;
}) {
  const resolve = useResolveReport();
  const { trigger, title, confirm, icon: Icon, hint } = ACTIONS[action];
  return (
    <ReasonDialog
      trigger={
        <Button variant={action === 'dismiss' ? 'outline' : 'primary'} size="sm">
          <Icon aria-hidden="true" />
          {trigger}
        </Button>
      }
      title={title}
      description={`${report.reporter.username}’s report about ${report.reported.username}: “${report.reason}”`}
      schema={resolveReportBodySchema}
      defaultValues={{ action, note: '' }}
      fields={[{ name: 'note', label: 'Note', hint }]}
      submit={{ label: confirm, pendingLabel: 'SAVING...', icon: Icon, variant: 'primary' }}
      pending={resolve.isPending}
      onSubmit={(values, callbacks) =>
        resolve.mutate({ reportId: report.id, ...values }, callbacks)
      }
    />
  );
}
