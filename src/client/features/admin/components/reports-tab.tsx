import { useId } from 'react';
import { Link } from 'wouter';
import { Flag } from 'lucide-react';
import type { AdminReport, ReportStatus } from '#shared/contracts/reports.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useReports } from '../api/get-reports.ts';
import { Fact, rowClasses } from './facts.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';
import { ResolveReportDialog } from './resolve-report-dialog.tsx';

const STATUS_BADGES: Record<ReportStatus, { label: string; variant: BadgeVariant }> = {
  open: { label: 'OPEN', variant: 'warning' },
  dismissed: { label: 'DISMISSED', variant: 'neutral' },
  actioned: { label: 'ACTIONED', variant: 'success' },
};

function ReportRow({ report }: { report: AdminReport }) {
  const titleId = useId();
  const badge = STATUS_BADGES[report.status];
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <h3
          id={titleId}
          className="font-display text-base font-bold tracking-wide break-all text-white"
        >
          {report.reporter.username} reported {report.reported.username}
        </h3>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Fact label="Reason" wide>
          {report.reason}
        </Fact>
        <Fact label="Filed">{formatDateTime(report.createdAt)}</Fact>
        {report.challengeId !== null && (
          <Fact label="Challenge">
            <Link
              href={`/challenges/${report.challengeId}`}
              className="text-accent underline underline-offset-4 hover:text-accent-strong"
            >
              #{report.challengeId}
            </Link>
          </Fact>
        )}
        {report.resolvedAt && (
          <Fact label="Resolved">
            {formatDateTime(report.resolvedAt)}
            {report.resolvedBy && ` by ${report.resolvedBy.username}`}
          </Fact>
        )}
        {report.resolutionNote && (
          <Fact label="Note" wide>
            {report.resolutionNote}
          </Fact>
        )}
      </dl>
      {report.status === 'open' && (
        <div className="flex flex-wrap gap-2">
          <ResolveReportDialog report={report} action="dismiss" />
          <ResolveReportDialog report={report} action="actioned" />
        </div>
      )}
    </article>
  );
}

/** Players' reports about each other (docs/fair-play.md): open ones first, then the resolved. */
export function ReportsTab() {
  const reports = useReports();
  return (
    <PagedList
      query={pagedQuery(reports)}
      items={reports.data?.pages.flat() ?? []}
      label="Player reports"
      empty={{ icon: Flag, title: 'NO REPORTS' }}
      getKey={(report) => report.id}
      renderItem={(report) => <ReportRow report={report} />}
    />
  );
}
