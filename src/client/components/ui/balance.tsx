import { formatDollars } from '#client/lib/format.ts';

/** A large balance figure: dollars, labelled Coins, described as '$ Blue Coins' (SPEC §1). */
export function BalanceFigure({ balance }: { balance: number }) {
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1" title="$ Blue Coins">
      <span className="font-display text-4xl font-black text-white tabular-nums">
        {formatDollars(balance)}
      </span>
      <span className="font-display text-sm font-bold tracking-widest text-accent uppercase">
        Coins
      </span>
    </p>
  );
}
