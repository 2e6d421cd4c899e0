import { useId } from 'react';
import { Link } from 'wouter';
import { CreditCard, Send } from 'lucide-react';
import type { AdminChargeback } from '#shared/contracts/chargebacks.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useChargebacks } from '../api/get-chargebacks.ts';
import { useSubmitDisputeEvidence } from '../api/submit-dispute-evidence.ts';
import { Fact, Missing, rowClasses } from './facts.tsx';
import { PagedList } from './paged-list.tsx';

const OUTCOME_BADGES: Record<AdminChargeback['outcome'], { label: string; variant: BadgeVariant }> =
  {
    open: { label: 'OPEN', variant: 'warning' },
    won: { label: 'WON', variant: 'success' },
    lost: { label: 'LOST', variant: 'danger' },
  };

/** Stripe's evidence fields in words, in the order a reader at the bank meets them. */
const EVIDENCE_LABELS: Record<string, string> = {
  customer_name: 'Account',
  customer_email_address: 'E-mail',
  customer_purchase_ip: 'Paid from',
  service_date: 'Payment day',
  product_description: 'What was bought',
  uncategorized_text: 'Age, terms and play',
  access_activity_log: 'Sign-ins',
};

function EvidenceList({ evidence }: { evidence: Record<string, string | null> }) {
  return (
    <dl className="grid gap-3 text-sm">
      {Object.entries(EVIDENCE_LABELS).map(([field, label]) => (
        <Fact key={field} label={label} wide>
          <span className="whitespace-pre-line break-words">{evidence[field] ?? <Missing />}</span>
        </Fact>
      ))}
    </dl>
  );
}

function evidenceState(dispute: AdminChargeback): string {
  if (dispute.evidenceSubmittedAt) {
    return `Submitted ${formatDateTime(dispute.evidenceSubmittedAt)}${
      dispute.submittedAutomatically ? ' (by itself, 48 hours before the deadline)' : ''
    }`;
  }
  if (dispute.evidenceStagedAt) return `Staged ${formatDateTime(dispute.evidenceStagedAt)}`;
  return 'Being gathered';
}

function ChargebackRow({ dispute }: { dispute: AdminChargeback }) {
  const titleId = useId();
  const submit = useSubmitDisputeEvidence();
  const badge = OUTCOME_BADGES[dispute.outcome];
  const submittable = dispute.outcome === 'open' && dispute.evidenceSubmittedAt === null;
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <h3
          id={titleId}
          className="font-display text-base font-bold tracking-wide break-all text-white"
        >
          {formatDollars(dispute.amount)} disputed by {dispute.username}’s bank
        </h3>
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Fact label="Player">
          <Link
            href={`/admin/players/${dispute.userId}`}
            className="text-accent underline underline-offset-4 hover:text-accent-strong"
          >
            {dispute.username}
          </Link>
        </Fact>
        <Fact label="Payment">
          <span className="break-all">{dispute.paymentIntentId}</span>
        </Fact>
        <Fact label="Reason">{dispute.reason.replaceAll('_', ' ')}</Fact>
        <Fact label="Deadline">
          {dispute.evidenceDueBy ? formatDateTime(dispute.evidenceDueBy) : <Missing />}
        </Fact>
        <Fact label="Bank's status">{dispute.status.replaceAll('_', ' ')}</Fact>
        <Fact label="Opened">{formatDateTime(dispute.createdAt)}</Fact>
        <Fact label="Evidence" wide>
          {evidenceState(dispute)}
        </Fact>
      </dl>
      {dispute.evidence && (
        <details className="rounded-md border border-ink-600 p-3">
          <summary className="cursor-pointer text-sm font-semibold text-slate-200">
            The evidence the bank reads
          </summary>
          <div className="pt-3">
            <EvidenceList evidence={dispute.evidence} />
          </div>
        </details>
      )}
      {submittable && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={submit.isPending} onClick={() => submit.mutate(dispute.id)}>
            <Send aria-hidden="true" />
            {submit.isPending ? 'SUBMITTING...' : 'SUBMIT'}
          </Button>
        </div>
      )}
    </article>
  );
}

/**
 * CHARGEBACKS (docs/chargebacks.md): each card dispute with its player, payment, amount, reason,
 * deadline, state and evidence, and SUBMIT while the bank still takes evidence.
 */
export function ChargebacksTab() {
  const chargebacks = useChargebacks();
  return (
    <PagedList
      query={{
        isPending: chargebacks.isPending,
        hasData: chargebacks.data !== undefined,
        hasNextPage: false,
        isFetchingNextPage: false,
        isFetchNextPageError: false,
        fetchNextPage: () => undefined,
      }}
      items={chargebacks.data ?? []}
      label="Card disputes"
      empty={{
        icon: CreditCard,
        title: 'NO CARD DISPUTES',
        description: 'No bank has disputed a card payment.',
      }}
      getKey={(dispute) => dispute.id}
      renderItem={(dispute) => <ChargebackRow dispute={dispute} />}
    />
  );
}
