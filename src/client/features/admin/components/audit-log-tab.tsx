import { useId } from 'react';
import { ScrollText } from 'lucide-react';
import type { AuditEntryView } from '#shared/contracts/admin.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useAuditLog } from '../api/get-audit-log.ts';
import {
  auditActionLabel,
  auditTargetLabel,
  detailLabel,
  detailValue,
} from '../lib/audit-display.ts';
import { Fact, rowClasses } from './facts.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';

function AuditRow({ entry }: { entry: AuditEntryView }) {
  const titleId = useId();
  const details = Object.entries(entry.details);
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={titleId} className="font-display text-sm font-bold tracking-wide text-white">
            {auditActionLabel(entry.action)}
          </h3>
          <p className="text-xs text-slate-400">
            <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time> by{' '}
            <span className="font-semibold text-slate-200">{entry.actor.username}</span>
          </p>
        </div>
        <Badge variant="neutral" asWritten>
          {auditTargetLabel(entry.target)}
        </Badge>
      </header>
      {(entry.reason || details.length > 0) && (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
          {entry.reason && (
            <Fact label="Reason" wide>
              {entry.reason}
            </Fact>
          )}
          {details.map(([key, value]) => (
            <Fact key={key} label={detailLabel(key)}>
              {detailValue(key, value)}
            </Fact>
          ))}
        </dl>
      )}
    </article>
  );
}

/** Every admin action with who, when, what and why (issue 6), a page at a time. */
export function AuditLogTab() {
  const audit = useAuditLog();
  return (
    <PagedList
      query={pagedQuery(audit)}
      items={audit.data?.pages.flatMap((page) => page.items) ?? []}
      label="Audit log"
      empty={{ icon: ScrollText, title: 'NO ADMIN ACTIONS YET' }}
      getKey={(entry) => entry.id}
      renderItem={(entry) => <AuditRow entry={entry} />}
      moreLabel="Load older entries"
    />
  );
}
