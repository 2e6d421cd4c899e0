import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database, type DatabaseHandle } from '#server/db/client.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { seqScansOf } from '#tests/helpers/query-plans.ts';
import { paymentsQuery, payoutsQuery } from './exports.ts';
import { buildOverview, rangeBounds } from './overview.ts';
import {
  findLopsidedPairs,
  findSharedDevices,
  findSharedNetworks,
  findUnplayedWithdrawals,
  riskFlagsOf,
} from '../risk/risk.ts';
import { transfersQuery } from '../ledger/reports.ts';

/**
 * Every statement of the overview, the exports and the risk tab reads through an index (issue
 * 22): 100,000 rows in each table they read, spread over 1,000 days, as a platform a few years
 * old would hold them, then ANALYZE. A month is then a small slice that only an index finds
 * cheaply. PostgreSQL only: the question is what production plans.
 */
const ROWS = 100_000;
const SPREAD = `(now() - ((g % 1000) || ' days')::interval - ((g % 86400) || ' seconds')::interval)`;

const FILL = [
  `insert into users (username, password_hash, created_at)
     select 'player_' || g, 'x', ${SPREAD} from generate_series(1, ${ROWS}) g`,
  `insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at, ip_address,
       user_agent)
     select md5('s' || g), g, ${SPREAD}, ${SPREAD}, now() + interval '30 days',
       '10.' || (g % 250) || '.' || (g / 250 % 250) || '.1', 'Browser/' || (g % 5000)
     from generate_series(1, ${ROWS}) g`,
  // Each account on a device of its own, one in a thousand sharing its neighbour's; 250 carrier
  // addresses; one browser build for everyone (docs/accounts.md#devices).
  `insert into device_sign_ins (user_id, device_hash, first_signed_in_at, last_signed_in_at,
       user_agent, ip_address)
     select g, md5('d' || case when g % 1000 = 0 then g - 1 else g end), ${SPREAD}, ${SPREAD},
       'Mozilla/5.0 Chrome/131.0.0.0', '10.' || (g % 250) || '.0.1'
     from generate_series(1, ${ROWS}) g`,
  `insert into cleared_account_links (low_user_id, high_user_id, note, cleared_at)
     select g - 1, g, 'brothers', now() from generate_series(4, ${ROWS}, 4) g`,
  `insert into challenges (creator_id, acceptor_id, winner_id, amount_cents, game, gamer_tag,
       phone_number, console, status, created_at, accepted_at, completed_at, dispute_reason)
     select g, (g % ${ROWS}) + 1, case when g % 2 = 0 then g else (g % ${ROWS}) + 1 end, 500,
       'Chess', 'tag', '555', 'PC', case when g % 20 = 0 then 'disputed' else 'completed' end,
       ${SPREAD}, ${SPREAD}, ${SPREAD}, case when g % 20 = 0 then 'Cheating' end
     from generate_series(1, ${ROWS}) g`,
  `insert into ledger_accounts (key, kind, user_id, allow_negative, balance_cents)
     select 'user:' || g, 'user', g, false, 0 from generate_series(1, ${ROWS}) g
     union all select 'external:card', 'external', null, true, 0
     union all select 'external:crypto', 'external', null, true, 0
     union all select 'house:fees', 'house', null, false, 0
     union all select 'house:adjustments', 'house', null, true, 0`,
  `insert into ledger_transfers (idempotency_key, kind, reference_type, reference_id, payload_hash,
       created_at)
     select 'seed:' || g, case when g % 3 = 0 then 'settlement' when g % 3 = 1 then 'deposit'
         else 'payout_complete' end, 'challenge', g::text, 'h', ${SPREAD}
     from generate_series(1, ${ROWS}) g`,
  `insert into ledger_postings (transfer_id, account_id, amount_cents, balance_after_cents,
       created_at)
     select t.id, a.id, 10000, 0, t.created_at
       from ledger_transfers t join ledger_accounts a on a.key = 'user:' || t.reference_id
     union all
     select t.id, (select id from ledger_accounts where key = case t.kind
         when 'settlement' then 'house:fees' else 'external:card' end), -10000, 0, t.created_at
       from ledger_transfers t`,
  `insert into payments (provider, method, provider_payment_id, user_id, requested_amount_cents,
       credited_amount_cents, currency, status, provider_status, ledger_transfer_id, created_at)
     select 'sandbox-card', 'card', 'pi_' || g, g, 10000, 10000, 'usd', 'credited', 'succeeded',
       g, ${SPREAD}
     from generate_series(1, ${ROWS}) g`,
  `insert into payouts (user_id, amount_cents, status, stage, payment_method, payment_details,
       phone_number, decided_by, decided_at, completed_at, created_at)
     select g, 100, 'completed', 'completed', 'paypal', 'p@x', '555', 1, ${SPREAD}, ${SPREAD}, ${SPREAD}
     from generate_series(1, ${ROWS}) g`,
  `analyze`,
];

let database: DatabaseHandle;
let pool: pg.Pool;

describe.runIf(onPostgres)('the insights read through indexes (100,000 rows)', () => {
  beforeAll(async () => {
    database = await openTestDatabase();
    if (!database.pool) throw new Error('expected PostgreSQL');
    pool = database.pool;
    for (const statement of FILL) await pool.query(statement);
  }, 300_000);
  afterAll(async () => {
    await database?.close();
  });

  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  const month = { from: monthAgo, to: today };
  const { start, end } = rangeBounds(month);
  const settings = {
    windowDays: 30,
    sharedAccountsMin: 2,
    pairMatchesMin: 5,
    pairWinPercent: 90,
    withdrawnPercent: 80,
    playPercent: 25,
  };
  const now = new Date();

  const shapes: Array<[string, (db: Database) => Promise<unknown>]> = [
    [
      'the overview of the last 30 days (one statement per series)',
      (db) => buildOverview(db, month),
    ],
    ['the transfers export with postings', (db) => queryRows(db, transfersQuery(start, end))],
    ['the payments export', (db) => queryRows(db, paymentsQuery(start, end))],
    ['the payouts export', (db) => queryRows(db, payoutsQuery(start, end))],
    ['accounts sharing a device', (db) => findSharedDevices(db, settings, now)],
    ['the devices of one player', (db) => findSharedDevices(db, settings, now, 31_000)],
    ['accounts sharing a network', (db) => findSharedNetworks(db, settings, now)],
    ['the risk flags of one player', (db) => riskFlagsOf(db, settings, now, 31_000)],
    ['one-sided pairs', (db) => findLopsidedPairs(db, settings, now)],
    ['deposits withdrawn unplayed', (db) => findUnplayedWithdrawals(db, settings, now)],
  ];

  it.each(shapes)('%s', async (_name, work) => {
    expect(await seqScansOf(pool, work)).toEqual([]);
  });

  it('finds a month of rows in the overview (the fill reaches the range)', async () => {
    const overview = await buildOverview(database.db, month);
    expect(overview.total.registrations).toBeGreaterThan(2_000);
    expect(overview.total.depositsCents).toBeGreaterThan(0n);
    expect(overview.total.feesEarnedCents).not.toBe(0n);
  });
});
