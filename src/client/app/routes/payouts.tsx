import { Bitcoin } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { formatDollars } from '#client/lib/format.ts';
import { BalanceFigure } from '#client/components/ui/balance.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { pickFocusTarget, useFocusRecovery } from '#client/lib/focus-recovery.ts';
import {
  CardRefundDialog,
  CardRefundHistory,
} from '#client/features/payouts/components/card-refunds.tsx';
import { PayoutHistory } from '#client/features/payouts/components/payout-history.tsx';
import { RequestPayoutDialog } from '#client/features/payouts/components/request-payout-dialog.tsx';

/**
 * /payouts: the balance available to withdraw, the Request Payout dialog, REFUND TO CARD while card
 * money has not cleared (docs/chargebacks.md), and the history.
 */
export function PayoutsPage({ user }: { user: PublicUser }) {
  // A full refund to the card takes REFUND TO CARD away: focus moves to what the card still offers.
  const recovery = useFocusRecovery<HTMLDivElement>(pickFocusTarget);
  return (
    <>
      <PageHeader
        eyebrow="WITHDRAWALS"
        title="PAYOUTS"
        description="Redeem your Blue Coins for a crypto payout to your own wallet."
      />
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <Card highlight>
          <CardHeader>
            <CardTitle>Available Balance</CardTitle>
          </CardHeader>
          <CardContent className="space-y-5" {...recovery}>
            <BalanceFigure balance={user.available} />
            {user.underReview > 0 && (
              <p className="text-sm text-slate-300">
                {formatDollars(user.underReview)} more is held for review: winnings your opponents
                can still confirm or dispute. It becomes available once they do, or when the review
                ends.
              </p>
            )}
            <p className="flex items-center gap-2 text-sm text-slate-300">
              <Bitcoin aria-hidden="true" className="size-4 shrink-0 text-accent" />
              Payouts are sent in cryptocurrency.
            </p>
            <RequestPayoutDialog user={user} />
            <CardRefundDialog user={user} />
          </CardContent>
        </Card>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Payout History</CardTitle>
            <CardDescription>Every payout you request, with its status.</CardDescription>
          </CardHeader>
          <CardContent>
            <div className="space-y-6">
              <PayoutHistory />
              <CardRefundHistory />
            </div>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
