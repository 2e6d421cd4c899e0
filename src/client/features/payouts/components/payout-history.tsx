import { useId, type ReactNode } from 'react';
import { ChevronsDown, History, TriangleAlert } from 'lucide-react';
import type { PayoutView } from '#shared/contracts/payouts.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDollars } from '#client/lib/format.ts';
import { usePayouts } from '../api/get-payouts.ts';
import {
  payoutDateLabel,
  payoutDurationLabel,
  payoutMethodLabel,
  payoutStageLabel,
  payoutStatusLabel,
  payoutStatusVariant,
} from '../lib/payout-display.ts';

function Fact({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  // The <div> directly around the pair is the only wrapper a <dl> may hold.
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-[0.7rem] font-semibold tracking-wider text-slate-400 uppercase">
        {label}
      </dt>
      <dd className="text-sm font-medium break-words text-slate-100">{children}</dd>
    </div>
  );
}

/**
 * One payout as docs/product.md#screens lists it (amount, status, method, details, phone and date),
 * with where it is on its way out (docs/payouts.md): the stage and its reason, the coins sent, the
 * transaction, and how long it took.
 */
export function PayoutEntry({ payout }: { payout: PayoutView }) {
  const titleId = useId();
  const took = payoutDurationLabel(payout.createdAt, payout.completedAt);
  return (
    <article
      aria-labelledby={titleId}
      className="space-y-3 rounded-lg border border-ink-700 bg-ink-900/60 p-4"
    >
      <header className="flex items-start justify-between gap-3">
        <h3
          id={titleId}
          className="font-display text-xl font-black text-white tabular-nums"
          aria-label={`Payout of ${formatDollars(payout.amount)}`}
        >
          {formatDollars(payout.amount)}
        </h3>
        <Badge variant={payoutStatusVariant(payout.status)}>
          {payoutStatusLabel(payout.status)}
        </Badge>
      </header>
      <dl className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
        <Fact label="Method">{payoutMethodLabel(payout.paymentMethod)}</Fact>
        <Fact label="Phone">{payout.phoneNumber}</Fact>
        <Fact label="Details" className="sm:col-span-2">
          <span className="font-mono text-[0.8rem] break-all">{payout.paymentDetails}</span>
        </Fact>
        <Fact label="Stage" className="sm:col-span-2">
          <span data-testid="payout-stage">{payoutStageLabel(payout)}</span>
        </Fact>
        {payout.coinAmount && payout.currency && (
          <Fact label="Coins">
            {payout.coinAmount} {payout.currency.toUpperCase()}
            {payout.coinRate && (
              <span className="text-slate-400"> at {payout.coinRate} per $1</span>
            )}
          </Fact>
        )}
        {payout.txHash && (
          <Fact label="Transaction" className="sm:col-span-2">
            {payout.explorerUrl ? (
              <a
                href={payout.explorerUrl}
                target="_blank"
                rel="noreferrer noopener"
                className="rounded-sm font-mono text-[0.8rem] break-all text-accent underline underline-offset-4 hover:text-accent-strong"
              >
                {payout.txHash}
              </a>
            ) : (
              <span className="font-mono text-[0.8rem] break-all">{payout.txHash} (TEST MODE)</span>
            )}
          </Fact>
        )}
        <Fact label="Requested">{payoutDateLabel(payout.createdAt)}</Fact>
        {payout.status === 'completed' && (
          <Fact label="Completed">{payoutDateLabel(payout.completedAt)}</Fact>
        )}
        {took && <Fact label="Took">{took}</Fact>}
        {payout.status === 'failed' && payout.failureReason && (
          <Fact label="Reason" className="sm:col-span-2">
            <span className="text-red-300">{payout.failureReason}</span>
          </Fact>
        )}
      </dl>
    </article>
  );
}

/** The player's payouts, newest first, or NO PAYOUT RECORDS FOUND (docs/product.md#screens). */
export function PayoutHistory() {
  const list = usePayouts();
  if (list.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Loading payouts" />
      </div>
    );
  }
  if (!list.data) {
    return (
      <EmptyState
        icon={TriangleAlert}
        title="COULD NOT LOAD PAYOUTS"
        description="Please refresh the page to try again."
      />
    );
  }
  const payouts = list.data.pages.flat();
  if (payouts.length === 0) return <EmptyState icon={History} title="NO PAYOUT RECORDS FOUND" />;
  return (
    <div className="space-y-4">
      <ul aria-label="Payout history" className="space-y-3">
        {payouts.map((payout) => (
          <li key={payout.id}>
            <PayoutEntry payout={payout} />
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <div className="flex justify-center">
          <Button
            variant="outline"
            size="sm"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            <ChevronsDown aria-hidden="true" />
            {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </div>
  );
}
