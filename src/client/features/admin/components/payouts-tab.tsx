import { useId, useState } from 'react';
import { Rocket, TriangleAlert, Wallet } from 'lucide-react';
import type { AdminPayoutView } from '#shared/contracts/payouts.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { ConfirmMoneyButton } from '#client/components/confirm-money.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { pickFocusTarget, useFocusRecovery } from '#client/lib/focus-recovery.ts';
import {
  payoutDateLabel,
  payoutMethodLabel,
  payoutStageLabel,
  payoutStatusLabel,
  payoutStatusVariant,
} from '#client/features/payouts/lib/payout-display.ts';
import { useApprovePayout } from '../api/approve-payout.ts';
import { useAdminPayouts, type PayoutQueueFilter } from '../api/get-admin-payouts.ts';
import { usePayoutBalances } from '../api/get-payout-balances.ts';
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

/** Only a payout not yet with the provider can be decided by hand (docs/payouts.md). */
const DECIDABLE_STAGES: ReadonlySet<AdminPayoutView['stage']> = new Set(['review', 'queued']);

function ApprovePayoutButton({ payout }: { payout: AdminPayoutView }) {
  const approve = useApprovePayout();
  return (
    <ConfirmMoneyButton
      size="sm"
      trigger={
        <>
          <Rocket aria-hidden="true" />
          APPROVE & SEND
        </>
      }
      title={`Send ${formatDollars(payout.amount)} to ${payout.username}?`}
      confirmLabel={`YES, SEND ${formatDollars(payout.amount)}`}
      busyLabel="SENDING..."
      busy={approve.isPending}
      onConfirm={() => approve.mutate(payout.id)}
    >
      <p>
        Payout #{payout.id} leaves for {payout.paymentDetails}. Once sent, it cannot be called back.
      </p>
    </ConfirmMoneyButton>
  );
}

function AdminPayoutRow({ payout }: { payout: AdminPayoutView }) {
  const titleId = useId();
  const recovery = useFocusRecovery<HTMLElement>(pickFocusTarget);
  return (
    <article
      aria-labelledby={titleId}
      className={rowClasses}
      // A decision takes its buttons away: focus stays in the row instead of falling to the page.
      tabIndex={-1}
      {...recovery}
    >
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
        <Fact label="Stage" wide>
          {payoutStageLabel(payout)}
        </Fact>
        {payout.coinAmount && payout.currency && (
          <Fact label="Coins">
            {payout.coinAmount} {payout.currency.toUpperCase()}
          </Fact>
        )}
        {payout.txHash && (
          <Fact label="Transaction" wide>
            <span className="font-mono text-[0.8rem] break-all">{payout.txHash}</span>
          </Fact>
        )}
        {payout.failureReason && (
          <Fact label="Reason" wide>
            <span className="text-red-300">{payout.failureReason}</span>
          </Fact>
        )}
      </dl>
      {payout.status === 'pending' && DECIDABLE_STAGES.has(payout.stage) && (
        <div className="flex flex-wrap gap-2">
          {payout.stage === 'review' && payout.currency && <ApprovePayoutButton payout={payout} />}
          <CompletePayoutDialog payout={payout} />
          <FailPayoutDialog payout={payout} />
        </div>
      )}
    </article>
  );
}

/**
 * The payout provider's balance per coin (docs/payouts.md), with a warning where a queued payout
 * waits for more than the provider holds.
 */
function ProviderBalances() {
  const balances = usePayoutBalances();
  const data = balances.data;
  if (!data) return null;
  const heading =
    data.provider === 'sandbox'
      ? 'Payout provider balance (TEST MODE)'
      : data.provider === 'nowpayments'
        ? 'NOWPayments balance'
        : 'Payouts are sent by hand';
  return (
    <section aria-label="Payout provider balance" className={rowClasses}>
      <h3 className="font-display text-sm font-bold tracking-wide text-white uppercase">
        {heading}
      </h3>
      {data.provider && !data.balances && (
        <p className="text-sm text-amber-200">The provider did not answer: try again shortly.</p>
      )}
      {data.balances && (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
          {data.balances.map((coin) => (
            <Fact key={coin.currency} label={coin.currency.toUpperCase()}>
              {coin.amount}
              {coin.queuedCount > 0 && (
                <span className="block text-xs text-slate-400">{coin.queuedCount} queued</span>
              )}
              {coin.short && (
                <span className="flex items-center gap-1 text-xs text-amber-200">
                  <TriangleAlert aria-hidden="true" className="size-3.5" />
                  Too low for a queued payout
                </span>
              )}
            </Fact>
          ))}
        </dl>
      )}
    </section>
  );
}

/** Beyond the SPEC (issue 6): the payout queue, where an admin completes or fails requests. */
export function PayoutsTab() {
  const [filter, setFilter] = useState<PayoutQueueFilter>('pending');
  const payouts = useAdminPayouts(filter);
  return (
    <div className="space-y-5">
      <ProviderBalances />
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
