import { sql, type SQL } from 'drizzle-orm';
import { utcDay, utcIso } from '../../lib/sql-time.ts';
import {
  EXTERNAL_CARD,
  EXTERNAL_CRYPTO,
  HOUSE_ADJUSTMENTS,
  HOUSE_FEES,
  HOUSE_UNCLAIMED,
} from './accounts.ts';

/**
 * What the operator's reports read from the ledger, as statements (or parts of one) that the
 * insights feature runs: the ledger's tables are spelled here and nowhere else.
 */

/**
 * Money by day from the ledger: each of the house's and the outside world's accounts, looked up
 * by key, then its postings in the range through `ledger_postings_account_created_idx`. Deposits
 * are what `deposit` transfers took from the outside accounts; payouts what completed payouts
 * sent to them; the house's position is the sum over its own accounts.
 */
export function moneyByDay(start: string, end: string): SQL {
  const houseKeys = [HOUSE_FEES, HOUSE_ADJUSTMENTS, HOUSE_UNCLAIMED];
  return sql`
    select ${utcDay(sql`p.created_at`)} as day,
      coalesce(sum(p.amount_cents) filter (where a.key = ${HOUSE_FEES}), 0)::text as fees,
      coalesce(sum(p.amount_cents) filter (where a.kind = 'house'), 0)::text as house,
      coalesce(-sum(p.amount_cents) filter (where a.kind = 'external' and t.kind = 'deposit'), 0)::text
        as deposits,
      coalesce(sum(p.amount_cents) filter (where a.kind = 'external' and t.kind = 'payout_complete'), 0)::text
        as payouts
    from ledger_accounts a
    join ledger_postings p on p.account_id = a.id
      and p.created_at >= ${start}::timestamptz and p.created_at < ${end}::timestamptz
    join ledger_transfers t on t.id = p.transfer_id
    where a.key in (${sql.join(
      [...houseKeys, EXTERNAL_CARD, EXTERNAL_CRYPTO].map((key) => sql`${key}`),
      sql`, `,
    )})
    group by 1`;
}

/**
 * Every posting of the transfers made in the range: one line each, its transfer repeated. The
 * postings and their accounts are looked up per transfer (a lateral join, a subquery), so the
 * statement reads the range through its index and never the whole ledger, however the planner
 * weighs a hash join.
 */
export function transfersQuery(start: string, end: string): SQL {
  return sql`
    select t.id::text as transfer_id, ${utcIso(sql`t.created_at`)} as created_at, t.kind,
      t.idempotency_key, t.reference_type, t.reference_id,
      t.reverses_transfer_id::text as reverses_transfer_id, t.memo,
      p.id::text as posting_id,
      (select a.key from ledger_accounts a where a.id = p.account_id) as account,
      p.amount_cents::text as amount_cents, p.balance_after_cents::text as balance_after_cents
    from ledger_transfers t
    cross join lateral (
      select id, account_id, amount_cents, balance_after_cents from ledger_postings
        where transfer_id = t.id order by id
    ) p
    where t.created_at >= ${start}::timestamptz and t.created_at < ${end}::timestamptz
    order by t.created_at, t.id, p.id`;
}

/**
 * The prizes credited to players' own wallets for challenges in [from, to), one row each:
 * `(user_id, challenge_id, amount_cents, created_at)`, for a statement to join with what it knows.
 * A prize is the settlement that paid a result at once (results from before reviews, an admin's
 * award) or the release of a credit held for review; one that a reversal names paid nothing in
 * the end and is left out, and a credit that went to `house:unclaimed` reached no player.
 *
 * The kinds and the reference type are written into the statement, not bound: only then can the
 * planner use the partial index `ledger_transfers_prize_credits_idx` for every execution.
 */
export function prizeCredits(from: Date, to: Date): SQL {
  return sql`(
    select a.user_id, t.reference_id::integer as challenge_id, p.amount_cents, t.created_at
    from ledger_transfers t
    join ledger_postings p on p.transfer_id = t.id and p.amount_cents > 0
    join ledger_accounts a on a.id = p.account_id and a.kind = 'user'
    where t.reference_type = 'challenge' and t.kind in ('settlement', 'review_release')
      and t.created_at >= ${from.toISOString()}::timestamptz
      and t.created_at < ${to.toISOString()}::timestamptz
      and not exists (select 1 from ledger_transfers r where r.reverses_transfer_id = t.id)
  )`;
}
