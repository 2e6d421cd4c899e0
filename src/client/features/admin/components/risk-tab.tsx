import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ShieldCheck, TriangleAlert } from 'lucide-react';
import type { Risk, RiskPlayer } from '#shared/contracts/insights.ts';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { formatDollars } from '#client/lib/format.ts';
import { useRisk } from '../api/get-risk.ts';
import { Missing } from './facts.tsx';

const headerCell = 'px-3 py-2 text-left font-semibold tracking-wider whitespace-nowrap';
const numberCell = 'px-3 py-2 text-right tabular-nums whitespace-nowrap';

/** A player's name linking to their page; it never breaks across lines (keyboard focus walk). */
export function PlayerLink({ player }: { player: RiskPlayer }) {
  return (
    <Link
      href={`/admin/players/${player.id}`}
      className="inline-flex font-medium whitespace-nowrap text-accent underline-offset-2 hover:underline"
    >
      {player.username}
    </Link>
  );
}

/** The players one device or one address was shared by, wrapping onto as many lines as needed. */
function PlayerList({ players }: { players: RiskPlayer[] }) {
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1">
      {players.map((player) => (
        <li key={player.id}>
          <PlayerLink player={player} />
        </li>
      ))}
    </ul>
  );
}

function Signal({
  title,
  description,
  empty,
  children,
}: {
  title: string;
  description: string;
  empty: boolean;
  children: ReactNode;
}) {
  const id = title.toLowerCase().replaceAll(/[^a-z]+/g, '-');
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="font-display text-sm font-bold tracking-wider text-white">
        {title}
      </h2>
      <p className="text-sm text-slate-400">{description}</p>
      {empty ? (
        <p className="flex items-center gap-2 rounded-lg border border-ink-700 p-3 text-sm text-slate-300">
          <ShieldCheck aria-hidden="true" className="size-4 text-emerald-300" />
          Nothing found.
        </p>
      ) : (
        <div
          role="region"
          aria-label={`${title}, table`}
          tabIndex={0}
          className="overflow-x-auto rounded-lg border border-ink-700 focus-visible:outline-2 focus-visible:outline-accent"
        >
          {children}
        </div>
      )}
    </section>
  );
}

function Signals({ risk }: { risk: Risk }) {
  const { thresholds, windowDays } = risk;
  return (
    <div className="space-y-8">
      <Signal
        title="SHARED DEVICE"
        description={`Accounts signed in on one device in the last ${windowDays} days (${thresholds.sharedAccountsMin} or more). They cannot play each other until an admin clears their link on a player page.`}
        empty={risk.sharedDevices.length === 0}
      >
        <table className="w-full min-w-[36rem] text-sm text-slate-200">
          <thead className="bg-ink-900 text-[0.7rem] text-slate-400 uppercase">
            <tr>
              <th scope="col" className={headerCell}>
                Device
              </th>
              <th scope="col" className={headerCell}>
                Browsers
              </th>
              <th scope="col" className={headerCell}>
                Players
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-700">
            {risk.sharedDevices.map((row) => (
              <tr key={row.device}>
                <th scope="row" className="px-3 py-2 text-left font-mono font-normal">
                  {row.device}
                </th>
                <td className="max-w-72 px-3 py-2">
                  {row.browsers.length === 0 ? (
                    <Missing>Unknown</Missing>
                  ) : (
                    <ul className="space-y-1 break-words">
                      {row.browsers.map((browser) => (
                        <li key={browser}>{browser}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-3 py-2">
                  <PlayerList players={row.players} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Signal>

      <Signal
        title="SHARED NETWORK"
        description={`Accounts signed in from one address in the last ${windowDays} days (${thresholds.sharedAccountsMin} or more). A carrier, a campus or a café can explain it, so it never holds a payout by itself.`}
        empty={risk.sharedNetworks.length === 0}
      >
        <table className="w-full min-w-[36rem] text-sm text-slate-200">
          <thead className="bg-ink-900 text-[0.7rem] text-slate-400 uppercase">
            <tr>
              <th scope="col" className={headerCell}>
                Address
              </th>
              <th scope="col" className={headerCell}>
                Players
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-700">
            {risk.sharedNetworks.map((row) => (
              <tr key={row.address}>
                <th scope="row" className="max-w-72 px-3 py-2 text-left font-normal break-all">
                  {row.address}
                </th>
                <td className="px-3 py-2">
                  <PlayerList players={row.players} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Signal>

      <Signal
        title="ONE-SIDED PAIRS"
        description={`Two players with ${thresholds.pairMatchesMin} or more finished matches against each other in the last ${windowDays} days, one winning ${Math.round(thresholds.pairWinShareMin * 100)}% or more.`}
        empty={risk.lopsidedPairs.length === 0}
      >
        <table className="w-full min-w-[36rem] text-sm text-slate-200">
          <thead className="bg-ink-900 text-[0.7rem] text-slate-400 uppercase">
            <tr>
              <th scope="col" className={headerCell}>
                Winner
              </th>
              <th scope="col" className={headerCell}>
                Loser
              </th>
              <th scope="col" className={`${headerCell} text-right`}>
                Won
              </th>
              <th scope="col" className={`${headerCell} text-right`}>
                Moved to winner
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-700">
            {risk.lopsidedPairs.map((pair) => (
              <tr key={`${pair.winner.id}:${pair.loser.id}`}>
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <PlayerLink player={pair.winner} />
                </th>
                <td className="px-3 py-2">
                  <PlayerLink player={pair.loser} />
                </td>
                <td className={numberCell}>
                  {pair.winnerWins} of {pair.matches}
                </td>
                <td className={numberCell}>{formatDollars(pair.amountMoved)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Signal>

      <Signal
        title="DEPOSITS WITHDRAWN UNPLAYED"
        description={`Players who asked to withdraw ${Math.round(thresholds.withdrawnShareMin * 100)}% or more of what they deposited in the last ${windowDays} days, having staked under ${Math.round(thresholds.playShareMax * 100)}% of it.`}
        empty={risk.unplayedWithdrawals.length === 0}
      >
        <table className="w-full min-w-[36rem] text-sm text-slate-200">
          <thead className="bg-ink-900 text-[0.7rem] text-slate-400 uppercase">
            <tr>
              <th scope="col" className={headerCell}>
                Player
              </th>
              <th scope="col" className={`${headerCell} text-right`}>
                Deposited
              </th>
              <th scope="col" className={`${headerCell} text-right`}>
                Withdrawn
              </th>
              <th scope="col" className={`${headerCell} text-right`}>
                Staked
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-700">
            {risk.unplayedWithdrawals.map((row) => (
              <tr key={row.player.id}>
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <PlayerLink player={row.player} />
                </th>
                <td className={numberCell}>{formatDollars(row.deposited)}</td>
                <td className={numberCell}>{formatDollars(row.withdrawn)}</td>
                <td className={numberCell}>{formatDollars(row.staked)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Signal>
    </div>
  );
}

/**
 * RISK (docs/operator-tools.md): the patterns abuse leaves, each row linking to the player pages.
 */
export function RiskTab() {
  const risk = useRisk();
  if (risk.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label="Loading the risk signals" />
      </div>
    );
  }
  if (risk.isError) {
    return (
      <EmptyState
        icon={TriangleAlert}
        title="COULD NOT LOAD THE RISK SIGNALS"
        description="Please refresh the page to try again."
      />
    );
  }
  return <Signals risk={risk.data} />;
}
