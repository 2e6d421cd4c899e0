import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateChallengeBody } from '#shared/contracts/challenges.ts';
import { PAYMENT_MESSAGES, SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import type { ResponsibleGaming } from '#shared/contracts/responsible-gaming.ts';
import { playBreakEnd } from '#shared/play-breaks.ts';
import { createAppContext } from '#server/context.ts';
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
import { selectPaymentProviders } from '../payments/providers/select-providers.ts';
import { CARD_CHECKOUT_MS, reconcileDuePayments } from '../payments/reconcile.ts';
import type { PaymentDeps } from '../payments/service.ts';

/**
 * The player's own limits and breaks (docs/responsible-play.md), every rule on the server: deposit
 * limits over rolling windows counted from the ledger's deposits and the requests still pending, a
 * raise that waits 24 hours, and time-outs and self-exclusions that nobody can end early. The clock
 * is injected and moved across each boundary.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
let now = new Date('2031-05-01T12:00:00Z');
const clock = () => now;
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};
let t: TestApp;
let admin: Agent;
let paymentDeps: PaymentDeps;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { SESSION_IDLE_MINUTES: '43200', SESSION_MAX_DAYS: '365' },
  });
  ({ agent: admin } = await signInAdmin(t));
  const ctx = createAppContext({ env: t.env, database: t.database, bus: t.bus, clock });
  paymentDeps = {
    ctx,
    providers: selectPaymentProviders(t.env, t.database.db, clock),
    log: pino({ level: 'silent' }),
  };
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const challenge = (amount: number): CreateChallengeBody => ({
  game: 'Tekken 8',
  amount,
  gamerTag: 'Kazuya',
  phoneNumber: '5550108000',
  console: 'PlayStation',
});

async function rules(agent: Agent): Promise<ResponsibleGaming> {
  const response = await agent.get('/api/responsible-gaming');
  expect(response.statusCode).toBe(200);
  return response.json<ResponsibleGaming>();
}

async function setLimits(agent: Agent, body: object): Promise<ResponsibleGaming> {
  const response = await agent.put('/api/responsible-gaming/limits', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ResponsibleGaming>();
}

/** A card deposit paid in the sandbox, as the deposit dialog makes one. */
async function cardDeposit(agent: Agent, amount: number | string) {
  const created = await agent.post('/api/create-payment-intent', { amount });
  if (created.statusCode !== 200) return created;
  const { clientSecret } = created.json<{ clientSecret: string }>();
  const paid = await agent.post('/api/sandbox/card/confirm', {
    clientSecret,
    cardNumber: SANDBOX_TEST_CARDS.success,
  });
  expect(paid.statusCode).toBe(200);
  return created;
}

async function countRows(table: 'payments' | 'sandbox_payments', userId: number) {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}`,
  );
  return row?.n ?? 0;
}

describe('deposit limits', () => {
  it('refuses a deposit over the daily limit before any provider is called, saying what is left', async () => {
    const { agent, user } = await signUp(t.app);
    const set = await setLimits(agent, { daily: 50 });
    expect(set.limits.daily).toEqual({ amount: 50, used: 0, left: 50, pending: null });
    expect(set.limits.weekly).toEqual({ amount: null, used: 0, left: null, pending: null });

    for (const url of ['/api/create-payment-intent', '/api/create-crypto-payment']) {
      const refused = await agent.post(url, { amount: 60 });
      expect(refused.statusCode).toBe(400);
      const message = 'This deposit is over your daily deposit limit: $50.00 left today.';
      expect(refused.json()).toEqual({
        code: 'DEPOSIT_LIMIT_EXCEEDED',
        message,
        fields: { amount: message },
      });
    }
    const manual = await agent.post('/api/crypto-deposit-notification', {
      amount: 60,
      currency: 'btc',
    });
    expect(manual.json().code).toBe('DEPOSIT_LIMIT_EXCEEDED');
    // No provider was asked: neither our record nor the sandbox provider's exists.
    expect(await countRows('payments', user.id)).toBe(0);
    expect(await countRows('sandbox_payments', user.id)).toBe(0);

    expect((await cardDeposit(agent, 40)).statusCode).toBe(200);
    expect(await balanceOf(t.database, user.id)).toBe(4000n);
    // Exact in cents: $10.01 is one cent too many, $10.00 fits.
    const over = await agent.post('/api/create-payment-intent', { amount: '10.01' });
    expect(over.json().message).toBe(
      'This deposit is over your daily deposit limit: $10.00 left today.',
    );
    expect((await cardDeposit(agent, '10.00')).statusCode).toBe(200);
    const full = await rules(agent);
    expect(full.limits.daily).toEqual({ amount: 50, used: 50, left: 0, pending: null });
    expect((await agent.post('/api/create-payment-intent', { amount: 10 })).json().message).toBe(
      'This deposit is over your daily deposit limit: $0.00 left today.',
    );
  });

  it('counts a pending request until it fails, and each deposit for 24 hours from its request', async () => {
    const { agent } = await signUp(t.app);
    await setLimits(agent, { daily: 100, weekly: 150 });
    // A crypto payment not yet paid holds its place: it may still be paid in full.
    const pending = await agent.post('/api/create-crypto-payment', { amount: 70 });
    expect(pending.statusCode).toBe(200);
    const { paymentId } = pending.json<{ paymentId: string }>();
    expect((await rules(agent)).limits.daily.left).toBe(30);
    expect((await agent.post('/api/create-payment-intent', { amount: 31 })).statusCode).toBe(400);
    // Once it fails, it no longer counts.
    const failed = await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, {
      status: 'failed',
    });
    expect(failed.statusCode).toBe(200);
    expect((await rules(agent)).limits.daily.left).toBe(100);

    expect((await cardDeposit(agent, 100)).statusCode).toBe(200);
    advance(DAY_MS - 1);
    expect((await rules(agent)).limits.daily).toMatchObject({ used: 100, left: 0 });
    advance(1);
    // A full 24 hours later the day has room again; the week still counts the $100.
    const later = await rules(agent);
    expect(later.limits.daily).toMatchObject({ used: 0, left: 100 });
    expect(later.limits.weekly).toMatchObject({ used: 100, left: 50 });
    const weekly = await agent.post('/api/create-payment-intent', { amount: 60 });
    expect(weekly.json().message).toBe(
      'This deposit is over your weekly deposit limit: $50.00 left this week.',
    );
    advance(6 * DAY_MS);
    expect((await rules(agent)).limits.weekly).toMatchObject({ used: 0, left: 150 });
  });

  it('ends a declined card payment at once, holds an unpaid one until its checkout ends, and counts a late credit when it lands', async () => {
    const { agent, user } = await signUp(t.app);
    await setLimits(agent, { daily: 100 });
    // A declined card ends its payment: the day has its room back at once.
    const declined = await agent.post('/api/create-payment-intent', { amount: 60 });
    const refused = await agent.post('/api/sandbox/card/confirm', {
      clientSecret: declined.json<{ clientSecret: string }>().clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.declined,
    });
    expect(refused.statusCode).toBe(402);
    expect((await rules(agent)).limits.daily.left).toBe(100);

    // A payment left unpaid holds its $60 until the reconciliation worker cancels it, a
    // checkout's time after it was asked for; after that it can no longer be paid at all.
    const open = await agent.post('/api/create-payment-intent', { amount: 60 });
    const { clientSecret } = open.json<{ clientSecret: string }>();
    expect((await rules(agent)).limits.daily.left).toBe(40);
    advance(CARD_CHECKOUT_MS - 1);
    await reconcileDuePayments(paymentDeps, now);
    expect((await rules(agent)).limits.daily.left).toBe(40);
    advance(1);
    expect(await reconcileDuePayments(paymentDeps, now)).toMatchObject({ checked: 1 });
    expect((await rules(agent)).limits.daily.left).toBe(100);
    const late = await agent.post('/api/sandbox/card/confirm', {
      clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.success,
    });
    expect(late.statusCode).toBe(402);
    expect(await balanceOf(t.database, user.id)).toBe(0n);

    // A crypto payment asked for two days ago and paid now counts from now, at what the ledger
    // credited.
    await setLimits(agent, { weekly: 500 });
    const asked = await agent.post('/api/create-crypto-payment', { amount: 80 });
    const { paymentId } = asked.json<{ paymentId: string }>();
    advance(2 * DAY_MS);
    expect((await rules(agent)).limits.daily.left).toBe(100);
    const paid = await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, {
      status: 'finished',
    });
    expect(paid.statusCode).toBe(200);
    const after = await rules(agent);
    expect(after.limits.daily).toMatchObject({ used: 80, left: 20 });
    expect(after.limits.weekly).toMatchObject({ used: 80, left: 420 });
  });

  it('answers a retried deposit (same Idempotency-Key) with its payment, even at the limit', async () => {
    const { agent } = await signUp(t.app);
    await setLimits(agent, { daily: 100 });
    const ask = (amount: number, key: string) =>
      agent.request({
        method: 'POST',
        url: '/api/create-payment-intent',
        payload: { amount },
        headers: { 'idempotency-key': key },
      });
    const first = await ask(60, 'deposit-retry-0001');
    expect(first.statusCode).toBe(200);
    // The answer was lost; the retry gets the same payment, not a refusal for counting it twice.
    const retry = await ask(60, 'deposit-retry-0001');
    expect(retry.statusCode).toBe(200);
    expect(retry.json<{ paymentIntentId: string }>().paymentIntentId).toBe(
      first.json<{ paymentIntentId: string }>().paymentIntentId,
    );
    expect((await rules(agent)).limits.daily.left).toBe(40);
    // A new request is a new deposit, judged as one; a key can name only one.
    const another = await ask(60, 'deposit-retry-0002');
    expect(another.json().code).toBe('DEPOSIT_LIMIT_EXCEEDED');
    const changed = await ask(30, 'deposit-retry-0001');
    expect(changed.statusCode).toBe(409);
    expect(changed.json().message).toBe(PAYMENT_MESSAGES.requestKeyReused);
  });

  it('keeps the time of a waiting raise when the same raise is asked for again', async () => {
    const { agent } = await signUp(t.app);
    await setLimits(agent, { monthly: 200 });
    const first = await setLimits(agent, { monthly: 400 });
    advance(HOUR_MS);
    const again = await setLimits(agent, { monthly: 400 });
    expect(again.limits.monthly.pending).toEqual(first.limits.monthly.pending);
    expect(again.history).toHaveLength(2);
  });

  it('names the tightest limit when several are passed', async () => {
    const { agent } = await signUp(t.app);
    await setLimits(agent, { daily: 100, monthly: 80 });
    const refused = await agent.post('/api/create-payment-intent', { amount: 90 });
    expect(refused.json().message).toBe(
      'This deposit is over your monthly deposit limit: $80.00 left this month.',
    );
  });

  it('lowers a limit at once, and raises or removes one only 24 hours later', async () => {
    const { agent } = await signUp(t.app);
    await setLimits(agent, { daily: 50 });
    const requestedAt = now;
    const raised = await setLimits(agent, { daily: 100 });
    const at = new Date(requestedAt.getTime() + DAY_MS).toISOString();
    expect(raised.limits.daily).toEqual({
      amount: 50,
      used: 0,
      left: 50,
      pending: { amount: 100, at },
    });
    expect((await agent.post('/api/create-payment-intent', { amount: 60 })).statusCode).toBe(400);
    advance(DAY_MS - 1);
    expect((await rules(agent)).limits.daily.amount).toBe(50);
    advance(1);
    expect((await rules(agent)).limits.daily).toEqual({
      amount: 100,
      used: 0,
      left: 100,
      pending: null,
    });
    expect((await cardDeposit(agent, 60)).statusCode).toBe(200);

    // A removal waits as a raise does; a lower limit meanwhile applies at once and drops it.
    const removing = await setLimits(agent, { daily: null });
    expect(removing.limits.daily.pending).toEqual({
      amount: null,
      at: new Date(now.getTime() + DAY_MS).toISOString(),
    });
    const lowered = await setLimits(agent, { daily: 70 });
    expect(lowered.limits.daily).toEqual({ amount: 70, used: 60, left: 10, pending: null });
    advance(DAY_MS);
    expect((await rules(agent)).limits.daily.amount).toBe(70);
    // Removal, waited out.
    await setLimits(agent, { daily: null });
    advance(DAY_MS);
    expect((await rules(agent)).limits.daily).toEqual({
      amount: null,
      used: 0,
      left: null,
      pending: null,
    });

    const history = (await rules(agent)).history;
    expect(history.map((change) => [change.kind, change.limit, change.amount])).toEqual([
      ['limit_raise_requested', 'daily', null],
      ['limit_set', 'daily', 70],
      ['limit_raise_requested', 'daily', null],
      ['limit_raise_requested', 'daily', 100],
      ['limit_set', 'daily', 50],
    ]);
    expect(history[3]?.effectiveAt).toBe(at);
  });

  it('changes nothing when the limit asked for is the one in force', async () => {
    const { agent } = await signUp(t.app);
    await setLimits(agent, { weekly: '25.50' });
    const again = await setLimits(agent, { weekly: 25.5 });
    expect(again.history).toHaveLength(1);
    expect(again.limits.weekly.amount).toBe(25.5);
  });

  it('refuses bad limits with a clear message', async () => {
    const { agent } = await signUp(t.app);
    const cases: Array<[unknown, string]> = [
      [{}, 'Please change at least one limit'],
      [{ daily: 0 }, 'A limit must be greater than $0'],
      [{ daily: -5 }, 'A limit must be greater than $0'],
      [{ daily: 'ten' }, 'Please enter a valid amount'],
      [{ daily: 10.001 }, 'Please enter a valid amount'],
      [{ weekly: 1_000_001 }, 'A limit can be at most $1,000,000.00'],
      [{ daily: true }, 'Please enter a valid amount'],
    ];
    for (const [body, message] of cases) {
      const response = await agent.put('/api/responsible-gaming/limits', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.json()), JSON.stringify(body)).toContain(message);
    }
    const unknown = await agent.put('/api/responsible-gaming/limits', { yearly: 10 });
    expect(unknown.statusCode).toBe(400);
    expect((await rules(agent)).history).toEqual([]);
  });

  it.runIf(onPostgres)(
    'lets exactly as many racing deposits through as the limit holds',
    async () => {
      const { agent, user } = await signUp(t.app);
      await setLimits(agent, { daily: 100 });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => agent.post('/api/create-payment-intent', { amount: 30 })),
      );
      const codes = answers.map((answer) => answer.statusCode).sort();
      expect(codes).toEqual([200, 200, 200, 400, 400, 400, 400, 400]);
      const [row] = await queryRows<{ total: string }>(
        t.database.db,
        sql`select sum(requested_amount_cents)::text as total from payments where user_id = ${user.id}`,
      );
      expect(row?.total).toBe('9000');
    },
  );
});

describe('time-outs and self-exclusions', () => {
  async function fundedPlayer(cents: bigint) {
    const player = await signUp(t.app);
    await fund(t.database, player.user.id, cents);
    return player;
  }

  it('withdraws open challenges, refuses cash play naming the end, and keeps payouts', async () => {
    const player = await fundedPlayer(10_000n);
    const rival = await fundedPlayer(10_000n);
    const mine = (await player.agent.post('/api/challenges', challenge(15))).json<{ id: number }>();
    const theirs = (await rival.agent.post('/api/challenges', challenge(10))).json<{
      id: number;
    }>();
    expect(await balanceOf(t.database, player.user.id)).toBe(8_500n);

    const started = await player.agent.post('/api/responsible-gaming/time-out', { days: 1 });
    expect(started.statusCode).toBe(200);
    const until = new Date(now.getTime() + DAY_MS).toISOString();
    expect(started.json<ResponsibleGaming>().playBreak).toEqual({ kind: 'time_out', until });
    // The open challenge is withdrawn and its stake is back.
    expect(await balanceOf(t.database, player.user.id)).toBe(10_000n);
    const withdrawn = await player.agent.get(`/api/challenges/${mine.id}`);
    expect(withdrawn.json()).toMatchObject({ status: 'cancelled', cancelCause: 'play_break' });

    const end = `${until.slice(0, 10)} ${until.slice(11, 16)} UTC`;
    const message = `You are taking a time-out until ${end}: deposits and challenges are paused until then.`;
    const refusals = await Promise.all([
      player.agent.post('/api/challenges', challenge(10)),
      player.agent.post(`/api/challenges/${theirs.id}/accept`),
      player.agent.post('/api/create-payment-intent', { amount: 20 }),
      player.agent.post('/api/create-crypto-payment', { amount: 20 }),
      player.agent.post('/api/crypto-deposit-notification', { amount: 20, currency: 'btc' }),
    ]);
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(403);
      expect(refusal.json()).toEqual({ code: 'PLAY_PAUSED', message });
    }
    // Sign-in, history and payouts of available money still work.
    expect((await player.agent.get('/api/user')).json().playBreak).toEqual({
      kind: 'time_out',
      until,
    });
    expect((await player.agent.get('/api/challenges?mine=true')).statusCode).toBe(200);
    const payout = await player.agent.post('/api/payouts', {
      amount: 25,
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qtimeout000000000000000000000000000',
      phoneNumber: '+1 555 010 3000',
    });
    expect(payout.statusCode).toBe(201);
    // The player was told, and the admin sees the break on the user list.
    const notices = (await player.agent.get('/api/notifications')).json<{
      notifications: Array<{ kind: string; body: string }>;
    }>();
    const notice = notices.notifications.find((item) => item.kind === 'play_break_started');
    expect(notice?.body).toContain('withdrawn and $15.00 returned to your balance');
    const listed = (await admin.get(`/api/admin/users?search=${player.user.username}`)).json<
      Array<{ id: number; playBreak: unknown }>
    >();
    expect(listed.find((row) => row.id === player.user.id)?.playBreak).toEqual({
      kind: 'time_out',
      until,
    });

    // It ends by itself, to the millisecond.
    advance(DAY_MS - 1);
    expect((await player.agent.post('/api/challenges', challenge(10))).statusCode).toBe(403);
    advance(1);
    expect((await player.agent.post('/api/challenges', challenge(10))).statusCode).toBe(201);
    expect((await rules(player.agent)).playBreak).toBeNull();
  });

  it('can be made longer but never shorter, and no route ends it', async () => {
    const { agent } = await signUp(t.app);
    expect((await agent.post('/api/responsible-gaming/time-out', { days: 7 })).statusCode).toBe(
      200,
    );
    const shorter = await agent.post('/api/responsible-gaming/time-out', { days: 1 });
    expect(shorter.statusCode).toBe(409);
    const end = new Date(now.getTime() + 7 * DAY_MS).toISOString();
    expect(shorter.json().message).toBe(
      `You already have a break until ${end.slice(0, 10)} ${end.slice(11, 16)} UTC: a new one must end later than that.`,
    );
    const excluded = await agent.post('/api/responsible-gaming/self-exclusion', { months: 6 });
    expect(excluded.statusCode).toBe(200);
    // Six calendar months on, at the same time of day.
    expect(excluded.json<ResponsibleGaming>().playBreak?.until).toBe(
      playBreakEnd(now, { months: 6 }).toISOString(),
    );
    expect(excluded.json<ResponsibleGaming>().playBreak?.kind).toBe('self_exclusion');
    for (const [url, body] of [
      ['/api/responsible-gaming/time-out', { days: 0 }],
      ['/api/responsible-gaming/time-out', { days: 2 }],
      ['/api/responsible-gaming/time-out', {}],
      ['/api/responsible-gaming/self-exclusion', { months: 3 }],
      ['/api/responsible-gaming/self-exclusion', { months: '6' }],
    ] as const) {
      expect((await agent.post(url, body)).statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
    }
    for (const method of ['DELETE', 'PATCH'] as const) {
      const response = await agent.request({
        method,
        url: '/api/responsible-gaming/self-exclusion',
      });
      expect([404, 405]).toContain(response.statusCode);
    }
    expect((await rules(agent)).history.map((change) => change.kind)).toEqual([
      'self_exclusion',
      'time_out',
    ]);
  });

  it('holds off a challenge created while the break starts: none survives open', async () => {
    const player = await fundedPlayer(10_000n);
    const [created, started] = await Promise.all([
      player.agent.post('/api/challenges', challenge(20)),
      player.agent.post('/api/responsible-gaming/time-out', { days: 30 }),
    ]);
    expect(started.statusCode).toBe(200);
    expect([201, 403]).toContain(created.statusCode);
    const [open] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from challenges
          where creator_id = ${player.user.id} and status = 'open'`,
    );
    expect(open?.n).toBe(0);
    expect(await balanceOf(t.database, player.user.id)).toBe(10_000n);
  });
});
