import { useRef } from 'react';
import { Link } from 'wouter';
import { Coins, RefreshCw, Wallet } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { Button } from '#client/components/ui/button.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { NotificationBell } from '#client/features/notifications/components/notification-bell.tsx';
import { ProfileMenu } from './profile-menu.tsx';
import { useFixedBarHeight } from './use-fixed-bar-height.ts';
import { Wordmark } from './wordmark.tsx';

/**
 * The balance chip: dollars, labelled Coins and described as '$ Blue Coins'
 * (docs/product.md#what-it-does), and what of it reported results still hold for review
 * (docs/fair-play.md).
 */
function BalanceChip({ balance, underReview }: { balance: number; underReview: number }) {
  return (
    <div
      title="$ Blue Coins"
      className="flex min-h-9 min-w-0 flex-wrap items-center gap-x-2 rounded-md border border-accent/40 bg-accent/10 px-3 py-1"
    >
      <Coins aria-hidden="true" className="size-4 text-accent" />
      <span className="sr-only">Balance:</span>
      <span className="font-display text-sm font-bold text-white tabular-nums">
        {formatDollars(balance)}
      </span>
      <span className="text-xs font-semibold tracking-wider text-accent uppercase">Coins</span>
      {underReview > 0 && (
        <span className="text-xs text-slate-300 tabular-nums">
          · {formatDollars(underReview)} under review
        </span>
      )}
    </div>
  );
}

/**
 * The signed-in top bar. On a phone it folds into two rows (brand and menu, then balance and
 * deposit) so nothing is squeezed or scrolls sideways at 390 px. It sticks to the top of the
 * window, so its height is published for the page's scroll-padding.
 */
export function TopBar({ user }: { user: PublicUser }) {
  const bar = useRef<HTMLElement>(null);
  useFixedBarHeight(bar, '--top-bar-height', 'top');
  return (
    <header
      ref={bar}
      className="sticky top-0 z-30 border-b border-ink-700/80 bg-ink-950/85 backdrop-blur-md"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-2 gap-y-3 px-4 py-3 sm:gap-x-3 sm:px-6">
        <Wordmark />
        <div className="order-last flex w-full items-center justify-between gap-2 sm:order-none sm:ml-auto sm:w-auto sm:justify-end">
          <BalanceChip balance={user.balance} underReview={user.underReview} />
          <Button asChild size="sm">
            <Link href="/profile">
              <Wallet aria-hidden="true" />
              DEPOSIT FUNDS
            </Link>
          </Button>
        </div>
        <div className="ml-auto flex items-center gap-2 sm:ml-0">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Refresh"
            title="Refresh"
            onClick={() => window.location.reload()}
          >
            <RefreshCw aria-hidden="true" />
          </Button>
          <NotificationBell />
          <ProfileMenu user={user} />
        </div>
      </div>
    </header>
  );
}
