import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';

export interface InvariantReport {
  ok: boolean;
  problems: string[];
}

/**
 * The ledger's invariants (docs/money-and-ledger.md), checked from the rows themselves:
 * every transfer sums to zero, so all postings do; each cached balance equals the sum of its
 * postings; no account that may not go negative is negative; no finished challenge's or
 * tournament's escrow still holds money; no settled result's review account does; no ended
 * payout's hold does; no receivable is above zero, nor below it while its player's wallet
 * holds money; each card dispute was charged back once, and reversed once if (and only if) it
 * was won; each card refund's hold holds its amount until it ends, and one made reached the card
 * network once.
 */
export async function checkLedgerInvariants(db: Executor): Promise<InvariantReport> {
  const problems: string[] = [];

  const total = await queryRows<{ total: string }>(
    db,
    sql`select coalesce(sum(amount_cents), 0)::text as total from ledger_postings`,
  );
  const totalCents = total[0]?.total ?? '0';
  if (totalCents !== '0') problems.push(`all postings sum to ${totalCents} cents, not 0`);

  const unbalanced = await queryRows<{ transfer_id: string; total: string }>(
    db,
    sql`
    select transfer_id::text, sum(amount_cents)::text as total
    from ledger_postings group by transfer_id having sum(amount_cents) <> 0 limit 50`,
  );
  for (const row of unbalanced) {
    problems.push(`transfer ${row.transfer_id} sums to ${row.total} cents, not 0`);
  }

  const drifted = await queryRows<{ key: string; cached: string; actual: string }>(
    db,
    sql`
    select a.key, a.balance_cents::text as cached, coalesce(p.total, 0)::text as actual
    from ledger_accounts a
    left join (select account_id, sum(amount_cents) as total from ledger_postings group by account_id) p
      on p.account_id = a.id
    where a.balance_cents <> coalesce(p.total, 0)
    limit 50`,
  );
  for (const row of drifted) {
    problems.push(`${row.key}: cached balance ${row.cached} ≠ sum of postings ${row.actual}`);
  }

  const negative = await queryRows<{ key: string; balance: string }>(
    db,
    sql`
    select key, balance_cents::text as balance from ledger_accounts
    where not allow_negative and balance_cents < 0 limit 50`,
  );
  for (const row of negative) problems.push(`${row.key} is negative: ${row.balance} cents`);

  // A finished challenge has paid out or refunded everything it held.
  const leftovers = await queryRows<{ key: string; balance: string; status: string }>(
    db,
    sql`
    select a.key, a.balance_cents::text as balance, c.status
    from challenges c
    join ledger_accounts a on a.key = 'escrow:challenge:' || c.id
    where c.status in ('completed', 'cancelled') and a.balance_cents <> 0
    limit 50`,
  );
  for (const row of leftovers)
    problems.push(`${row.key} still holds ${row.balance} cents but is ${row.status}`);

  // A finished or cancelled tournament has paid out or refunded every entry fee
  // (docs/tournaments.md).
  const tournamentLeftovers = await queryRows<{ key: string; balance: string; status: string }>(
    db,
    sql`
    select a.key, a.balance_cents::text as balance, t.status
    from tournaments t
    join ledger_accounts a on a.key = 'escrow:tournament:' || t.id
    where t.status in ('finished', 'cancelled') and a.balance_cents <> 0
    limit 50`,
  );
  for (const row of tournamentLeftovers)
    problems.push(`${row.key} still holds ${row.balance} cents but is ${row.status}`);

  // A result's credit is held only while the result is under review or disputed
  // (docs/fair-play.md): once released, decided or refunded, its review account is empty.
  const heldAfter = await queryRows<{ key: string; balance: string; status: string }>(
    db,
    sql`
    select a.key, a.balance_cents::text as balance, c.status
    from ledger_accounts a
    join challenges c on a.key = 'review:challenge:' || c.id
    where a.kind = 'review' and a.balance_cents <> 0
      and not (c.status in ('completed', 'disputed') and c.released_at is null)
    limit 50`,
  );
  for (const row of heldAfter) {
    problems.push(`${row.key} still holds ${row.balance} cents but its result is settled`);
  }

  // A payout's hold empties when it ends (docs/payouts.md): out to the world, or back to the
  // wallet.
  const heldPayouts = await queryRows<{ key: string; balance: string; status: string }>(
    db,
    sql`
    select a.key, a.balance_cents::text as balance, p.status
    from payouts p
    join ledger_accounts a on a.key = 'payout:hold:' || p.id
    where p.status in ('completed', 'failed') and a.balance_cents <> 0
    limit 50`,
  );
  for (const row of heldPayouts) {
    problems.push(`${row.key} still holds ${row.balance} cents but the payout is ${row.status}`);
  }

  // A receivable holds what a player owes (docs/chargebacks.md): below zero or empty, never above.
  const owing = await queryRows<{ key: string; balance: string }>(
    db,
    sql`
    select key, balance_cents::text as balance from ledger_accounts
    where kind = 'receivable' and balance_cents > 0 limit 50`,
  );
  for (const row of owing) problems.push(`${row.key} is above zero: ${row.balance} cents`);

  // Money that reaches a player who owes pays the debt first (`ledger.post`), and a chargeback
  // takes the wallet before it records a debt: nobody owes while their wallet holds money.
  const owingWithMoney = await queryRows<{ key: string; debt: string; wallet: string }>(
    db,
    sql`
    select d.key, (-d.balance_cents)::text as debt, w.balance_cents::text as wallet
    from ledger_accounts d
    join ledger_accounts w on w.key = 'user:' || d.user_id
    where d.kind = 'receivable' and d.balance_cents < 0 and w.balance_cents > 0
    limit 50`,
  );
  for (const row of owingWithMoney) {
    problems.push(`${row.key} owes ${row.debt} cents while the wallet holds ${row.wallet}`);
  }

  // Each dispute took its amount back to the card network once, and gave it back once if won.
  const cardMoved = (keyPrefix: string) => sql`(select sum(p.amount_cents) from ledger_transfers t
      join ledger_postings p on p.transfer_id = t.id
      join ledger_accounts a on a.id = p.account_id and a.key = 'external:card'
      where t.idempotency_key = ${keyPrefix} || d.provider_dispute_id)`;
  const disputes = await queryRows<{
    dispute: string;
    outcome: string;
    amount: string;
    taken: string | null;
    returned: string | null;
  }>(
    db,
    sql`
    select d.provider_dispute_id as dispute, d.outcome, d.amount_cents::text as amount,
      taken.cents::text as taken, returned.cents::text as returned
    from card_disputes d
    cross join lateral (select ${cardMoved('chargeback:')} as cents) taken
    cross join lateral (select -${cardMoved('chargeback-reversal:')} as cents) returned
    where taken.cents is distinct from d.amount_cents
      or returned.cents is distinct from (case when d.outcome = 'won' then d.amount_cents end)
    limit 50`,
  );
  for (const row of disputes) {
    problems.push(
      `dispute ${row.dispute} (${row.outcome}) of ${row.amount} cents: charged back ` +
        `${row.taken ?? 'nothing'}, returned ${row.returned ?? 'nothing'}`,
    );
  }

  // A card refund's hold holds its amount while the provider makes it, and nothing once it ended;
  // a refund made sent its amount to the card network once, and one refused sent nothing.
  const refunds = await queryRows<{ id: number; status: string; held: string; sent: string }>(
    db,
    sql`
    select r.id, r.status, coalesce(a.balance_cents, 0)::text as held, sent.cents::text as sent
    from card_refunds r
    left join ledger_accounts a on a.key = 'card-refund:hold:' || r.id
    cross join lateral (select coalesce(sum(p.amount_cents), 0) as cents from ledger_transfers t
      join ledger_postings p on p.transfer_id = t.id
      join ledger_accounts e on e.id = p.account_id and e.key = 'external:card'
      where t.idempotency_key = 'card-refund:complete:' || r.id) sent
    where coalesce(a.balance_cents, 0) <> (case when r.status = 'pending' then r.amount_cents else 0 end)
      or sent.cents <> (case when r.status = 'succeeded' then r.amount_cents else 0 end)
    limit 50`,
  );
  for (const row of refunds) {
    problems.push(
      `card refund ${row.id} (${row.status}) holds ${row.held} cents and sent ${row.sent} to the card`,
    );
  }

  return { ok: problems.length === 0, problems };
}
