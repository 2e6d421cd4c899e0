import { Link } from 'wouter';
import { ChevronsDown, Receipt, TriangleAlert } from 'lucide-react';
import type { Transaction } from '#shared/contracts/wallet.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { cn } from '#client/lib/cn.ts';
import { TRANSFER_KINDS, type TransferKind } from '#shared/contracts/wallet.ts';
import { formatDateTime, formatDollars, formatSignedDollars } from '#client/lib/format.ts';
import { useTransactions } from '../api/get-transactions.ts';

/** The ledger's transfer kinds in a player's words; an unknown kind is shown tidied up. */
const KIND_LABELS: Record<TransferKind, string> = {
  deposit: 'Deposit',
  stake: 'Challenge stake',
  prize: 'Prize',
  refund: 'Refund',
  settlement: 'Challenge winnings',
  review_release: 'Challenge winnings',
  reversal: 'Reversal',
  payout_hold: 'Payout requested',
  payout_complete: 'Payout sent',
  payout_release: 'Payout returned',
  adjustment: 'Balance adjustment',
  unclaimed: 'Unclaimed funds',
  chargeback: 'Card payment disputed',
  chargeback_reversal: 'Dispute won: money returned',
  debt_repayment: 'Debt repaid',
  card_refund_hold: 'Card refund requested',
  card_refund: 'Refunded to card',
  card_refund_release: 'Card refund returned',
};

function isTransferKind(kind: string): kind is TransferKind {
  return (TRANSFER_KINDS as readonly string[]).includes(kind);
}

/** A tournament's money in its own words: its entry fee is no challenge stake. */
const TOURNAMENT_LABELS: Partial<Record<TransferKind, string>> = {
  stake: 'Tournament entry',
  refund: 'Tournament entry refunded',
  prize: 'Tournament prize',
};

export function transactionKindLabel(
  kind: string,
  reference: Transaction['reference'] = null,
): string {
  if (!isTransferKind(kind)) return tidied(kind);
  return (
    (reference?.type === 'tournament' ? TOURNAMENT_LABELS[kind] : undefined) ?? KIND_LABELS[kind]
  );
}

function tidied(kind: string): string {
  const words = kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function TransactionRow({ transaction }: { transaction: Transaction }) {
  const { amount, reference } = transaction;
  return (
    <li className="flex items-start justify-between gap-4 py-3">
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium text-slate-100">
          {transactionKindLabel(transaction.kind, reference)}
        </p>
        <p className="text-xs text-slate-400">
          <time dateTime={transaction.createdAt}>{formatDateTime(transaction.createdAt)}</time>
          {reference?.type === 'challenge' && (
            <>
              {' · '}
              <Link
                href={`/challenges/${reference.id}`}
                className="whitespace-nowrap text-accent underline-offset-4 hover:underline"
              >
                Challenge #{reference.id}
              </Link>
            </>
          )}
          {reference?.type === 'tournament' && (
            <>
              {' · '}
              <Link
                href={`/tournaments/${reference.id}`}
                className="whitespace-nowrap text-accent underline-offset-4 hover:underline"
              >
                Tournament #{reference.id}
              </Link>
            </>
          )}
        </p>
        {transaction.memo && (
          <p className="text-xs break-words text-slate-400">{transaction.memo}</p>
        )}
      </div>
      <div className="shrink-0 text-right">
        <p
          className={cn(
            'font-display text-sm font-bold tabular-nums',
            amount > 0 ? 'text-emerald-300' : amount < 0 ? 'text-red-300' : 'text-slate-200',
          )}
        >
          {formatSignedDollars(amount)}
        </p>
        <p className="text-xs text-slate-400 tabular-nums">
          Balance {formatDollars(transaction.balanceAfter)}
        </p>
      </div>
    </li>
  );
}

function TransactionList() {
  const list = useTransactions();
  if (list.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner label="Loading transactions" />
      </div>
    );
  }
  if (!list.data) {
    return (
      <EmptyState
        icon={TriangleAlert}
        title="COULD NOT LOAD TRANSACTIONS"
        description="Please refresh the page to try again."
      />
    );
  }
  const transactions = list.data.pages.flatMap((page) => page.items);
  if (transactions.length === 0) return <EmptyState icon={Receipt} title="NO TRANSACTIONS YET" />;
  return (
    <div className="space-y-4">
      <ul aria-label="Transactions" className="divide-y divide-ink-700">
        {transactions.map((transaction) => (
          <TransactionRow key={transaction.id} transaction={transaction} />
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

/** The profile's Transactions card: every movement of the player's wallet, with its balance. */
export function TransactionsCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Transactions</CardTitle>
        <CardDescription>Deposits, stakes, winnings and payouts.</CardDescription>
      </CardHeader>
      <CardContent>
        <TransactionList />
      </CardContent>
    </Card>
  );
}
