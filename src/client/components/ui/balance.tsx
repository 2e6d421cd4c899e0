import { formatDollars } from '#client/lib/format.ts';

/**
 * A large balance figure: dollars, labelled Coins, described as '$ Blue Coins'
 * (docs/product.md#what-it-does), with what of it reported results still hold for review
 * (docs/fair-play.md) when there is any.
 */
export function BalanceFigure({
  balance,
  underReview = 0,
}: {
  balance: number;
  underReview?: number;
}) {
  return (
    <div className="space-y-1">
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1" title="$ Blue Coins">
        <span className="font-display text-4xl font-black text-white tabular-nums">
          {formatDollars(balance)}
        </span>
        <span className="font-display text-sm font-bold tracking-widest text-accent uppercase">
          Coins
        </span>
      </p>
      {underReview > 0 && (
        <p className="text-sm text-slate-300 tabular-nums">
          {formatDollars(balance)} · {formatDollars(underReview)} under review
        </p>
      )}
    </div>
  );
}
