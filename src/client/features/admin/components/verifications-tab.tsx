import { useId, useState } from 'react';
import { IdCard } from 'lucide-react';
import type { AdminVerification } from '#shared/contracts/admin.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useVerifications, type VerificationQueueFilter } from '../api/get-verifications.ts';
import { Fact, rowClasses } from './facts.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';
import { fileSizeLabel, fileTypeLabel, ReviewLicenseDialog } from './review-license-dialog.tsx';
import { StatusFilter } from './status-filter.tsx';

const FILTERS: readonly { value: VerificationQueueFilter; label: string }[] = [
  { value: 'pending', label: 'Pending review' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
  { value: 'all', label: 'All licenses' },
];

const STATUS_BADGES: Record<AdminVerification['status'], { label: string; variant: BadgeVariant }> =
  {
    pending: { label: 'PENDING', variant: 'warning' },
    approved: { label: 'APPROVED', variant: 'success' },
    rejected: { label: 'REJECTED', variant: 'danger' },
  };

function VerificationRow({ verification }: { verification: AdminVerification }) {
  const titleId = useId();
  const badge = STATUS_BADGES[verification.status];
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <h3
          id={titleId}
          className="font-display text-base font-bold tracking-wide break-all text-white"
        >
          {verification.username}
        </h3>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Fact label="Uploaded">{formatDateTime(verification.createdAt)}</Fact>
        <Fact label="File">
          {fileTypeLabel(verification.contentType)}, {fileSizeLabel(verification.sizeBytes)}
        </Fact>
        {verification.reviewedAt && (
          <Fact label="Reviewed">{formatDateTime(verification.reviewedAt)}</Fact>
        )}
        {verification.note && (
          <Fact label="Note" wide>
            {verification.note}
          </Fact>
        )}
      </dl>
      <ReviewLicenseDialog verification={verification} />
    </article>
  );
}

/** Beyond the SPEC (issue 6): uploaded driver's licences and the admin's decision on each. */
export function VerificationsTab() {
  const [filter, setFilter] = useState<VerificationQueueFilter>('pending');
  const verifications = useVerifications(filter);
  return (
    <div className="space-y-5">
      <StatusFilter label="Show" value={filter} options={FILTERS} onChange={setFilter} />
      <PagedList
        query={pagedQuery(verifications)}
        items={verifications.data?.pages.flat() ?? []}
        label="ID verifications"
        empty={{
          icon: IdCard,
          title: filter === 'pending' ? 'NO LICENSES WAITING' : 'NO LICENSES FOUND',
        }}
        getKey={(verification) => verification.id}
        renderItem={(verification) => <VerificationRow verification={verification} />}
      />
    </div>
  );
}
