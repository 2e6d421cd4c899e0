import { useId, useState } from 'react';
import { Wallet } from 'lucide-react';
import type { AdminPayoutView } from '#shared/contracts/payouts.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { formatDollars } from '#client/lib/format.ts';
import {
  payoutDateLabel,
  payoutMethodLabel,
  payoutStatusLabel,
  payoutStatusVariant,
} from '#client/features/payouts/lib/payout-display.ts';
import { useAdminPayouts, type PayoutQueueFilter } from '../api/get-admin-payouts.ts';
import { Fact, rowClasses } from './facts.tsx';
import { PagedList, pagedQuery } from './paged-list.tsx';
import { CompletePayoutDialog, FailPayoutDialog } from './payout-decision-dialogs.tsx';
import { StatusFilter } from './status-filter.tsx';

const FILTERS: readonly { value: PayoutQueueFilter; label: string }[] = [
  { value: 'pending', label: 'Processing' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
  { value: 'all', label: 'All payouts' },
];

function AdminPayoutRow({ payout }: { payout: AdminPayoutView }) {
  const titleId = useId();
  return (
    <article aria-labelledby={titleId} className={rowClasses}>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3
            id={titleId}
            className="font-display text-base font-bold tracking-wide break-all text-white"
          >
            {payout.username}
          </h3>
          <p className="text-xs text-slate-400">Payout #{payout.id}</p>
        </div>
        <div className="flex items-center gap-3">
          <Badge variant={payoutStatusVariant(payout.status)}>
            {payoutStatusLabel(payout.status)}
          </Badge>
          <p className="font-display text-lg font-black text-white tabular-nums">
            <span className="sr-only">Amount: </span>
            {formatDollars(payout.amount)}
          </p>
        </div>
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        <Fact label="Method">{payoutMethodLabel(payout.paymentMethod)}</Fact>
        <Fact label="Phone">{payout.phoneNumber}</Fact>
        <Fact label="Requested">{payoutDateLabel(payout.createdAt)}</Fact>
        {payout.decidedAt && <Fact label="Decided">{payoutDateLabel(payout.decidedAt)}</Fact>}
        <Fact label="Details" wide>
          <span className="font-mono text-[0.8rem] break-all">{payout.paymentDetails}</span>
        </Fact>
        {payout.failureReason && (
          <Fact label="Reason" wide>
            <span className="text-red-300">{payout.failureReason}</span>
          </Fact>
        )}
      </dl>
      {payout.status === 'pending' && (
        <div className="flex flex-wrap gap-2">
          <CompletePayoutDialog payout={payout} />
          <FailPayoutDialog payout={payout} />
        </div>
      )}
    </article>
  );
}

/** Beyond the SPEC (issue 6): the payout queue, where an admin completes or fails requests. */
export function PayoutsTab() {
  const [filter, setFilter] = useState<PayoutQueueFilter>('pending');
  const payouts = useAdminPayouts(filter);
  return (
    <div className="space-y-5">
      <StatusFilter label="Show" value={filter} options={FILTERS} onChange={setFilter} />
      <PagedList
        query={pagedQuery(payouts)}
        items={payouts.data?.pages.flat() ?? []}
        label="Payouts"
        empty={{
          icon: Wallet,
          title: filter === 'pending' ? 'NO PAYOUTS WAITING' : 'NO PAYOUTS FOUND',
        }}
        getKey={(payout) => payout.id}
        renderItem={(payout) => <AdminPayoutRow payout={payout} />}
      />
    </div>
  );
}
