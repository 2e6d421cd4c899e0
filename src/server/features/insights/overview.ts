import { sql, type SQL } from 'drizzle-orm';
import { addDays, daysInRange } from '#shared/contracts/insights.ts';
import { queryRows, type Executor } from '../../db/client.ts';
import { moneyByDay } from '../ledger/index.ts';
import { utcDay } from '../../lib/sql-time.ts';

/** A range of UTC days, both included, as `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The overview's figures for one day or for the whole range (docs/operator-tools.md); money in
 * cents.
 */
export interface OverviewFigures {
  stakesVolumeCents: bigint;
  feesEarnedCents: bigint;
  depositsCents: bigint;
  payoutsCents: bigint;
  netHousePositionCents: bigint;
  activePlayers: number;
  registrations: number;
  completedChallenges: number;
  /** Challenges whose result was reported, and of those the ones disputed: the rate's parts. */
  reportedResults: number;
  disputedResults: number;
}

export interface OverviewReport {
  range: DayRange;
  total: OverviewFigures;
  daily: Array<{ date: string } & OverviewFigures>;
}

/** The instants a range covers: from its first day's midnight to the midnight after its last. */
export function rangeBounds({ from, to }: DayRange): { start: string; end: string } {
  return { start: `${from}T00:00:00Z`, end: `${addDays(to, 1)}T00:00:00Z` };
}

function emptyFigures(): OverviewFigures {
  return {
    stakesVolumeCents: 0n,
    feesEarnedCents: 0n,
    depositsCents: 0n,
    payoutsCents: 0n,
    netHousePositionCents: 0n,
    activePlayers: 0,
    registrations: 0,
    completedChallenges: 0,
    reportedResults: 0,
    disputedResults: 0,
  };
}

/** Both stakes of every challenge accepted, by the day it was accepted. */
function stakesSeries(start: string, end: string): SQL {
  return sql`
    select ${utcDay(sql`accepted_at`)} as day, (sum(amount_cents) * 2)::text as stakes
    from challenges
    where accepted_at >= ${start}::timestamptz and accepted_at < ${end}::timestamptz
    group by 1`;
}

/**
 * Players who created or accepted a challenge, counted once a day and once over the whole range
 * (the grouping set `()`, whose day is null): a player active on three days is one player.
 */
function activePlayersSeries(start: string, end: string): SQL {
  return sql`
    select ${utcDay(sql`at`)} as day, count(distinct user_id)::int as players
    from (
      select created_at as at, creator_id as user_id from challenges
        where created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
      union all
      select accepted_at, acceptor_id from challenges
        where accepted_at >= ${start}::timestamptz and accepted_at < ${end}::timestamptz
    ) activity
    group by grouping sets ((${utcDay(sql`at`)}), ())`;
}

function registrationsSeries(start: string, end: string): SQL {
  return sql`
    select ${utcDay(sql`created_at`)} as day, count(*)::int as registrations
    from users
    where created_at >= ${start}::timestamptz and created_at < ${end}::timestamptz
    group by 1`;
}

/**
 * Results by the day they were reported: those that stand (completed), all of them, and those
 * disputed, whether the dispute is still open or was decided since (its reason stays).
 */
function resultsSeries(start: string, end: string): SQL {
  return sql`
    select ${utcDay(sql`completed_at`)} as day,
      count(*) filter (where status = 'completed')::int as completed,
      count(*)::int as reported,
      count(*) filter (where dispute_reason is not null)::int as disputed
    from challenges
    where completed_at >= ${start}::timestamptz and completed_at < ${end}::timestamptz
    group by 1`;
}

/**
 * The overview of a range: five statements, one per series, each reading one index range; the
 * days and the totals are put together here.
 */
export async function buildOverview(db: Executor, range: DayRange): Promise<OverviewReport> {
  const { start, end } = rangeBounds(range);
  const days = Array.from({ length: daysInRange(range.from, range.to) }, (_, index) =>
    addDays(range.from, index),
  );
  const byDay = new Map(days.map((date) => [date, emptyFigures()]));
  const total = emptyFigures();
  const dayFigures = (day: string | null): OverviewFigures => {
    const figures = day === null ? undefined : byDay.get(day);
    if (!figures) throw new Error(`a series answered a day outside ${range.from}..${range.to}`);
    return figures;
  };

  const money = await queryRows<{
    day: string;
    fees: string;
    house: string;
    deposits: string;
    payouts: string;
  }>(db, moneyByDay(start, end));
  for (const row of money) {
    const figures = dayFigures(row.day);
    figures.feesEarnedCents = BigInt(row.fees);
    figures.netHousePositionCents = BigInt(row.house);
    figures.depositsCents = BigInt(row.deposits);
    figures.payoutsCents = BigInt(row.payouts);
  }

  for (const row of await queryRows<{ day: string; stakes: string }>(
    db,
    stakesSeries(start, end),
  )) {
    dayFigures(row.day).stakesVolumeCents = BigInt(row.stakes);
  }

  for (const row of await queryRows<{ day: string | null; players: number }>(
    db,
    activePlayersSeries(start, end),
  )) {
    if (row.day === null) total.activePlayers = Number(row.players);
    else dayFigures(row.day).activePlayers = Number(row.players);
  }

  for (const row of await queryRows<{ day: string; registrations: number }>(
    db,
    registrationsSeries(start, end),
  )) {
    dayFigures(row.day).registrations = Number(row.registrations);
  }

  for (const row of await queryRows<{
    day: string;
    completed: number;
    reported: number;
    disputed: number;
  }>(db, resultsSeries(start, end))) {
    const figures = dayFigures(row.day);
    figures.completedChallenges = Number(row.completed);
    figures.reportedResults = Number(row.reported);
    figures.disputedResults = Number(row.disputed);
  }

  for (const figures of byDay.values()) {
    total.stakesVolumeCents += figures.stakesVolumeCents;
    total.feesEarnedCents += figures.feesEarnedCents;
    total.depositsCents += figures.depositsCents;
    total.payoutsCents += figures.payoutsCents;
    total.netHousePositionCents += figures.netHousePositionCents;
    total.registrations += figures.registrations;
    total.completedChallenges += figures.completedChallenges;
    total.reportedResults += figures.reportedResults;
    total.disputedResults += figures.disputedResults;
  }
  return {
    range,
    total,
    daily: days.map((date) => ({ date, ...dayFigures(date) })),
  };
}

/** Disputed results over reported ones; no results, no disputes. */
export function disputeRate(figures: OverviewFigures): number {
  return figures.reportedResults === 0 ? 0 : figures.disputedResults / figures.reportedResults;
}
