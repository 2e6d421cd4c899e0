import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_MESSAGES } from '#shared/contracts/payouts.ts';
import { queryRows } from '#server/db/client.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { uploadLicence, verifiedPlayer as verifiedPlayerOf } from './testing/players.ts';

/**
 * Before money leaves (docs/responsible-play.md): an approved ID (KYC_REQUIRED_FOR_PAYOUT, the
 * production default), and at most PAYOUT_DAILY_LIMIT ($100 here) in any 24 hours, exact in cents.
 */
const HOUR_MS = 3_600_000;
let now = new Date('2031-05-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: {
      KYC_REQUIRED_FOR_PAYOUT: 'true',
      PAYOUT_DAILY_LIMIT: '100',
      SESSION_IDLE_MINUTES: '43200',
      SESSION_MAX_DAYS: '365',
    },
  });
  ({ agent: admin } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const payout = (amount: number | string) => ({
  amount,
  paymentMethod: 'crypto',
  paymentDetails: 'BTC bc1qcompliance00000000000000000000000',
  phoneNumber: '+1 555 010 3000',
});

const verifiedPlayer = (cents: bigint) => verifiedPlayerOf(t, admin, cents);

async function payoutRows(userId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from payouts where user_id = ${userId}`,
  );
  return row?.n ?? 0;
}

describe('an approved ID before the first payout', () => {
  it('refuses a player without one, or with one still pending or rejected, and moves nothing', async () => {
    const player = await signUp(t.app);
    await fund(t.database, player.user.id, 5_000n);
    const refusal = { code: 'IDENTITY_NOT_VERIFIED', message: PAYOUT_MESSAGES.identityRequired };

    const none = await player.agent.post('/api/payouts', payout(20));
    expect(none.statusCode).toBe(403);
    expect(none.json()).toEqual(refusal);

    const id = await uploadLicence(admin, player.agent, player.user.id);
    expect((await player.agent.post('/api/payouts', payout(20))).json()).toEqual(refusal);
    await admin.post(`/api/admin/verifications/${id}/reject`, { note: 'Unreadable photo' });
    expect((await player.agent.post('/api/payouts', payout(20))).json()).toEqual(refusal);

    expect(await balanceOf(t.database, player.user.id)).toBe(5_000n);
    expect(await payoutRows(player.user.id)).toBe(0);
  });

  it('lets the money out once an admin approves, and keeps it so after a new upload', async () => {
    const player = await verifiedPlayer(5_000n);
    expect((await player.agent.post('/api/payouts', payout(20))).statusCode).toBe(201);
    // A renewed licence waiting for review does not undo the identity already proven.
    await uploadLicence(admin, player.agent, player.user.id);
    expect((await player.agent.post('/api/payouts', payout(5))).statusCode).toBe(201);
    expect(await balanceOf(t.database, player.user.id)).toBe(2_500n);
  });
});

describe('PAYOUT_DAILY_LIMIT over any 24 hours', () => {
  it('refuses what would pass the limit, saying what is left, to the cent', async () => {
    const player = await verifiedPlayer(50_000n);
    expect((await player.agent.post('/api/payouts', payout('60.01'))).statusCode).toBe(201);

    const over = await player.agent.post('/api/payouts', payout('40.00'));
    expect(over.statusCode).toBe(400);
    const message = PAYOUT_MESSAGES.dailyLimit('$100.00', '$39.99');
    expect(over.json()).toEqual({
      code: 'PAYOUT_LIMIT_EXCEEDED',
      message,
      fields: { amount: message },
    });
    expect((await player.agent.post('/api/payouts', payout('39.99'))).statusCode).toBe(201);
    const none = await player.agent.post('/api/payouts', payout(1));
    expect(none.json()).toMatchObject({
      message: PAYOUT_MESSAGES.dailyLimit('$100.00', '$0.00'),
    });
  });

  it('counts a rolling window, not a calendar day, and never a failed payout', async () => {
    const player = await verifiedPlayer(50_000n);
    const limited = async (amount: number, left: string) => {
      const response = await player.agent.post('/api/payouts', payout(amount));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'PAYOUT_LIMIT_EXCEEDED',
        message: PAYOUT_MESSAGES.dailyLimit('$100.00', left),
      });
    };
    const start = now.getTime();
    const first = await player.agent.post('/api/payouts', payout(70));
    expect(first.statusCode).toBe(201);
    const firstId = first.json<{ payout: { id: number } }>().payout.id;

    // Midnight passes: the same 24 hours still count.
    now = new Date(start + 23 * HOUR_MS);
    await limited(31, '$30.00');
    expect((await player.agent.post('/api/payouts', payout(30))).statusCode).toBe(201);

    // A failed payout returned its money, and no longer counts against the limit, though it is
    // still inside the window.
    await admin.post(`/api/admin/payouts/${firstId}/fail`, { reason: 'Wrong network' });
    now = new Date(start + 23.5 * HOUR_MS);
    expect((await player.agent.post('/api/payouts', payout(70))).statusCode).toBe(201);
    await limited(1, '$0.00');

    // 24 hours after the $30, it has left the window; the $70, half an hour younger, still counts.
    now = new Date(start + 47 * HOUR_MS + 1);
    await limited(31, '$30.00');
    expect((await player.agent.post('/api/payouts', payout(30))).statusCode).toBe(201);
    await limited(1, '$0.00');
  });
});

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)('the limit under concurrent requests', () => {
  it('ten simultaneous $30 requests under a $100 limit (and a $500 wallet) hold exactly three', async () => {
    const player = await verifiedPlayer(50_000n);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => player.agent.post('/api/payouts', payout(30))),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 400, 400, 400, 400, 400, 400, 400]);
    expect(await balanceOf(t.database, player.user.id)).toBe(41_000n);
    expect(await payoutRows(player.user.id)).toBe(3);
  });
});
