import { sql, type SQL } from 'drizzle-orm';
import { cursorRows, queryRows, type DatabaseHandle, type Executor } from '../../db/client.ts';
import { prizeCredits } from '../ledger/index.ts';

/** One calendar year in UTC: from its first instant (inclusive) to the next year's (exclusive). */
export interface TaxYear {
  year: number;
  from: Date;
  to: Date;
}

export function taxYear(year: number): TaxYear {
  if (!Number.isInteger(year)) throw new RangeError(`a tax year is a whole year, not ${year}`);
  return { year, from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) };
}

/**
 * The instants a report covers: a tax year, or any range the admin exports
 * (docs/operator-tools.md).
 */
export type TaxPeriod = Pick<TaxYear, 'from' | 'to'>;

/** One player's winnings in a tax year; money in cents. */
export interface TaxReportEntry {
  userId: number;
  username: string;
  email: string | null;
  accountClosed: boolean;
  prizes: number;
  prizeCents: bigint;
  stakeCents: bigint;
  netCents: bigint;
}

interface EntryRow {
  user_id: number;
  username: string;
  email: string | null;
  account_closed: boolean;
  prizes: number;
  prize_cents: string;
  stake_cents: string;
  net_cents: string;
}

function toEntry(row: EntryRow): TaxReportEntry {
  return {
    userId: Number(row.user_id),
    username: row.username,
    email: row.email,
    accountClosed: row.account_closed,
    prizes: Number(row.prizes),
    prizeCents: BigInt(row.prize_cents),
    stakeCents: BigInt(row.stake_cents),
    netCents: BigInt(row.net_cents),
  };
}

/**
 * The players whose net winnings in `year` reach `thresholdCents`, highest first
 * (docs/responsible-play.md).
 *
 * A prize is what the ledger credited to the winner's own wallet for a challenge: the settlement
 * that paid a result at once (results from before reviews, an admin's award) or the release of a
 * credit held for review (docs/fair-play.md). It belongs to the year of that transfer. A settlement
 * that was later reversed (an admin decided the dispute the other way) paid nothing in the end and
 * is left out; a credit that went to `house:unclaimed` because the account was already closed never
 * reached the player. Net winnings are those credits, each already less the house's fee, minus the
 * player's own stake in each of those challenges. Losses on other challenges are not netted against
 * them: the rule is per prize, not the player's profit for the year.
 */
function taxReportQuery({ from, to }: TaxPeriod, thresholdCents: bigint): SQL {
  return sql`
    select u.id as user_id, u.username, u.email, u.deleted_at is not null as account_closed,
      count(*)::int as prizes,
      sum(p.amount_cents)::text as prize_cents,
      sum(c.amount_cents)::text as stake_cents,
      (sum(p.amount_cents) - sum(c.amount_cents))::text as net_cents
    from ${prizeCredits(from, to)} p
    join challenges c on c.id = p.challenge_id
    join users u on u.id = p.user_id
    group by u.id
    having sum(p.amount_cents) - sum(c.amount_cents) >= ${thresholdCents.toString()}::bigint
    order by sum(p.amount_cents) - sum(c.amount_cents) desc, u.id`;
}

/** The whole report at once, for the admin's screen. */
export async function listTaxReport(
  db: Executor,
  year: TaxYear,
  thresholdCents: bigint,
): Promise<TaxReportEntry[]> {
  return (await queryRows<EntryRow>(db, taxReportQuery(year, thresholdCents))).map(toEntry);
}

/** The same rows a batch at a time, for the CSV download: never the whole report in memory. */
export async function* streamTaxReport(
  database: DatabaseHandle,
  year: TaxPeriod,
  thresholdCents: bigint,
  batchSize = 500,
): AsyncGenerator<TaxReportEntry, void, undefined> {
  for await (const rows of cursorRows<EntryRow>(
    database,
    taxReportQuery(year, thresholdCents),
    batchSize,
  )) {
    for (const row of rows) yield toEntry(row);
  }
}
