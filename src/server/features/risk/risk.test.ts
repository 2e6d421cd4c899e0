import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Risk } from '#shared/contracts/insights.ts';
import { queryRows } from '#server/db/client.ts';
import { createTestApp, type Agent, type TestApp } from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import {
  findLopsidedPairs,
  findSharedDevices,
  findUnplayedWithdrawals,
  riskFlagsOf,
  riskSettingsOf,
} from './risk.ts';

/**
 * The RISK tab of docs/operator-tools.md (issue 22). Honest play first, as real players are: each
 * on their own device, all with one browser build (one User-Agent string), a third of them behind
 * one carrier's address; matches spread among many opponents with mixed results, deposits mostly
 * played. Its signals must be empty. Then each abuse is planted among that noise, beside near
 * misses, and only the planted rows must show.
 */

const NOW = new Date('2026-06-30T12:00:00Z');
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();

let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({ clock: () => NOW });
  ({ agent: admin } = await signInAdmin(t));
});
afterAll(async () => {
  await t.close();
});

/** A deterministic generator (mulberry32): the same noise on every run. */
function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function player(name: string): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    t.database.db,
    sql`insert into users (username, password_hash) values (${name}, 'x') returning id`,
  );
  if (!row) throw new Error('no user');
  return Number(row.id);
}

/** Since Chrome's User-Agent reduction, every player on one release and system sends this. */
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A sign-in as the server records it: a session, and the device (by its cookie's hash). */
async function signIn(
  userId: number,
  device: string,
  address: string,
  lastSeenDaysAgo = 1,
  browser = CHROME,
) {
  const deviceHash = createHash('sha256').update(device).digest('hex');
  await t.database.db.execute(sql`insert into sessions (token_hash, user_id, created_at,
      last_seen_at, expires_at, ip_address, user_agent)
    values (${randomBytes(16).toString('hex')}, ${userId}, ${daysAgo(lastSeenDaysAgo + 1)}::timestamptz,
      ${daysAgo(lastSeenDaysAgo)}::timestamptz, ${daysAgo(-30)}::timestamptz, ${address}, ${browser})`);
  await t.database.db.execute(sql`insert into device_sign_ins (user_id, device_hash,
      first_signed_in_at, last_signed_in_at, user_agent, ip_address)
    values (${userId}, ${deviceHash}, ${daysAgo(lastSeenDaysAgo + 1)}::timestamptz,
      ${daysAgo(lastSeenDaysAgo)}::timestamptz, ${browser}, ${address})`);
  return deviceHash.slice(0, 12);
}

async function clearLink(a: number, b: number) {
  await t.database.db.execute(sql`insert into cleared_account_links (low_user_id, high_user_id,
      note, cleared_at) values (${Math.min(a, b)}, ${Math.max(a, b)}, 'brothers', ${NOW.toISOString()}::timestamptz)`);
}

async function match(
  creatorId: number,
  acceptorId: number,
  winnerId: number,
  cents: number,
  at: number,
) {
  await t.database.db.execute(sql`insert into challenges (creator_id, acceptor_id, winner_id,
      amount_cents, game, gamer_tag, phone_number, console, status, created_at, accepted_at,
      completed_at)
    values (${creatorId}, ${acceptorId}, ${winnerId}, ${cents}, 'Chess', 'tag', '5550100000', 'PC',
      'completed', ${daysAgo(at)}::timestamptz, ${daysAgo(at)}::timestamptz,
      ${daysAgo(at)}::timestamptz)`);
}

let transferCount = 0;
async function deposit(userId: number, cents: number, at: number) {
  transferCount += 1;
  const [transfer] = await queryRows<{ id: string }>(
    t.database.db,
    sql`insert into ledger_transfers (idempotency_key, kind, payload_hash)
      values (${`risk:${transferCount}`}, 'deposit', 'h') returning id::text`,
  );
  await t.database.db.execute(sql`insert into payments (provider, method, provider_payment_id,
      user_id, requested_amount_cents, credited_amount_cents, currency, status, provider_status,
      ledger_transfer_id, created_at, credited_at)
    values ('sandbox-card', 'card', ${`pi_risk_${transferCount}`}, ${userId}, ${cents}, ${cents},
      'usd', 'credited', 'succeeded', ${transfer?.id}::bigint, ${daysAgo(at)}::timestamptz,
      ${daysAgo(at)}::timestamptz)`);
}

async function payout(
  userId: number,
  cents: number,
  at: number,
  status: 'pending' | 'failed' = 'pending',
) {
  await t.database.db
    .execute(sql`insert into payouts (user_id, amount_cents, status, stage, payment_method,
      payment_details, phone_number, failure_reason, decided_by, decided_at, created_at)
    values (${userId}, ${cents}, ${status}, ${status === 'failed' ? 'failed' : 'review'}, 'paypal', 'p@example.com', '5550100000',
      ${status === 'failed' ? 'Wrong address' : null}, ${status === 'failed' ? userId : null},
      ${status === 'failed' ? daysAgo(at) : null}::timestamptz, ${daysAgo(at)}::timestamptz)`);
}

const risk = async () => {
  const response = await admin.get('/api/admin/risk');
  expect(response.statusCode).toBe(200);
  return response.json<Risk>();
};

const honest: number[] = [];

describe('the risk signals', () => {
  it('find nothing in honest play', async () => {
    const random = randomFrom(14);
    for (let index = 0; index < 30; index += 1) {
      const id = await player(`honest_${index}`);
      honest.push(id);
      await signIn(
        id,
        `honest-device-${index}`,
        index < 10 ? '198.51.100.1' : `198.51.100.${index + 1}`,
      );
      await deposit(id, 10_000, 20);
      await payout(id, 3_000, 2);
    }
    // Each plays many opponents, winning and losing: no pair meets five times one-sidedly.
    for (let round = 0; round < 200; round += 1) {
      const a = honest[Math.floor(random() * honest.length)] as number;
      const b = honest[
        (honest.indexOf(a) + 1 + Math.floor(random() * 5)) % honest.length
      ] as number;
      await match(a, b, random() < 0.5 ? a : b, 500, 1 + Math.floor(random() * 25));
    }
    const found = await risk();
    expect(found.sharedDevices).toEqual([]);
    // The carrier's address is shown, as the weaker signal, and holds nothing.
    expect(found.sharedNetworks).toEqual([
      {
        address: '198.51.100.1',
        players: honest.slice(0, 10).map((id, index) => ({ id, username: `honest_${index}` })),
      },
    ]);
    for (const id of honest) {
      expect(await riskFlagsOf(t.database.db, riskSettingsOf(t.env), NOW, id)).toEqual([]);
    }
    expect(found.lopsidedPairs).toEqual([]);
    expect(found.unplayedWithdrawals).toEqual([]);
    expect(found.windowDays).toBe(30);
    expect(found.thresholds).toEqual({
      sharedAccountsMin: 2,
      pairMatchesMin: 5,
      pairWinShareMin: 0.9,
      withdrawnShareMin: 0.8,
      playShareMax: 0.25,
    });
  });

  it('find accounts signed in on one device in the window, among the noise', async () => {
    const [a, b, c, d, e, old] = [
      await player('shared_a'),
      await player('shared_b'),
      await player('shared_c'),
      await player('brother_d'),
      await player('brother_e'),
      await player('shared_old'),
    ];
    const safari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
    // Three accounts on one device, each from its own address, one of them with another browser.
    const device = await signIn(a, 'fraud-device', '203.0.113.7');
    await signIn(b, 'fraud-device', '203.0.113.8');
    await signIn(c, 'fraud-device', '203.0.113.9', 2, safari);
    // Two brothers on one console, the link cleared by an admin: not listed.
    await signIn(d, 'family-device', '203.0.113.20');
    await signIn(e, 'family-device', '203.0.113.21');
    await clearLink(d, e);
    // Signed in on the fraud device only before the window: not linked.
    await signIn(old, 'fraud-device', '203.0.113.30', 45);
    // The operator's own account on a player's device and address is not a player's: not listed.
    const operator = await player('operator');
    await t.database.db.execute(sql`update users set is_admin = true where id = ${operator}`);
    await signIn(operator, 'fraud-device', '203.0.113.7');
    const found = await risk();
    expect(found.sharedDevices).toEqual([
      {
        device,
        browsers: ['Chrome 131 on Windows', 'Safari 17 on macOS'],
        players: [
          { id: a, username: 'shared_a' },
          { id: b, username: 'shared_b' },
          { id: c, username: 'shared_c' },
        ],
      },
    ]);
    const settings = riskSettingsOf(t.env);
    expect(await riskFlagsOf(t.database.db, settings, NOW, a)).toEqual(['flagged: shared device']);
    expect(await riskFlagsOf(t.database.db, settings, NOW, d)).toEqual([]);
    expect(await riskFlagsOf(t.database.db, settings, NOW, old)).toEqual([]);
    // One pair of three cleared: the third account is not, so the device still shows.
    await clearLink(a, b);
    expect((await risk()).sharedDevices.map((row) => row.device)).toEqual([device]);
    // Both of a's links cleared: a is no longer named, while b and c still are.
    await clearLink(a, c);
    expect((await risk()).sharedDevices.map((row) => row.device)).toEqual([device]);
    expect(await riskFlagsOf(t.database.db, settings, NOW, a)).toEqual([]);
    expect(await riskFlagsOf(t.database.db, settings, NOW, b)).toEqual(['flagged: shared device']);
    await clearLink(b, c);
    expect((await risk()).sharedDevices).toEqual([]);
    expect(await riskFlagsOf(t.database.db, settings, NOW, c)).toEqual([]);
  });

  it('find a pair where one side wins nearly every match, not a rivalry or a short run', async () => {
    const [dumper, taker, rivalA, rivalB, shortA, shortB] = [
      await player('dumper'),
      await player('taker'),
      await player('rival_a'),
      await player('rival_b'),
      await player('short_a'),
      await player('short_b'),
    ];
    for (let index = 0; index < 9; index += 1) {
      await match(index % 2 ? dumper : taker, index % 2 ? taker : dumper, taker, 2_000, 1 + index);
      await match(rivalA, rivalB, index % 2 ? rivalA : rivalB, 2_000, 1 + index);
    }
    // One match the dumper won, so nine of ten went one way: still 90%.
    await match(dumper, taker, dumper, 500, 3);
    // Long ago: outside the window, not counted.
    for (let index = 0; index < 5; index += 1) await match(shortA, shortB, shortA, 1_000, 60);
    for (let index = 0; index < 4; index += 1) await match(shortA, shortB, shortA, 1_000, 5);

    const found = await risk();
    expect(found.lopsidedPairs).toEqual([
      {
        winner: { id: taker, username: 'taker' },
        loser: { id: dumper, username: 'dumper' },
        matches: 10,
        winnerWins: 9,
        amountMoved: 175,
      },
    ]);
    // The threshold is a setting: asking for more matches finds nothing.
    const settings = { ...riskSettingsOf(t.env), pairMatchesMin: 11 };
    expect(await findLopsidedPairs(t.database.db, settings, NOW)).toEqual([]);
  });

  it('find deposits withdrawn with little play, not a player who played or kept the money', async () => {
    const [mule, player2, keeper, failed] = [
      await player('mule'),
      await player('played_then_withdrew'),
      await player('keeper'),
      await player('failed_payout'),
    ];
    for (const id of [mule, player2, keeper, failed]) await deposit(id, 50_000, 10);
    await payout(mule, 30_000, 5);
    await payout(mule, 15_000, 4);
    await match(mule, honest[0] as number, mule, 1_000, 6);
    await payout(player2, 45_000, 3);
    await match(player2, honest[1] as number, player2, 20_000, 6);
    await payout(keeper, 10_000, 3);
    await payout(failed, 45_000, 3, 'failed');

    const found = await risk();
    expect(found.unplayedWithdrawals).toEqual([
      { player: { id: mule, username: 'mule' }, deposited: 500, withdrawn: 450, staked: 10 },
    ]);
    const lenient = { ...riskSettingsOf(t.env), withdrawnPercent: 95 };
    expect(await findUnplayedWithdrawals(t.database.db, lenient, NOW)).toEqual([]);
    const stricter = { ...riskSettingsOf(t.env), sharedAccountsMin: 4 };
    expect(await findSharedDevices(t.database.db, stricter, NOW)).toEqual([]);
  });
});
