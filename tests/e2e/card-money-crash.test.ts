import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fakeDispute,
  signedStripeEvent,
  startFakeStripe,
  type FakeStripe,
} from '#server/features/payments/testing/fake-stripe.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';
import { reachable, startApp, until, type RunningApp } from './harness.ts';

/**
 * Card money under SIGKILL (DESIGN §17): the server is killed once while Stripe has made a card
 * refund but its answer has not come back, and once in the middle of a dispute's transaction,
 * after its chargeback transfer and its money lock were written and before the transaction
 * committed (held there by a notification row this test writes first). The restarted server finds the refund the dead one made (one refund at Stripe, one
 * ledger movement), and the dispute, delivered again as Stripe does after a failed delivery, is
 * charged back once and locks the money once.
 *
 * PostgreSQL only (a dead worker's lease is lapsed by hand, as minutes would); it creates and
 * drops a database of its own.
 */
const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WEBHOOK_SECRET = 'whsec_card_money_crash_0123456789';

const onPostgres = await reachable(ADMIN_URL);

let database = '';
let env: Record<string, string> = {};
let pool: pg.Pool | undefined;
let stripe: FakeStripe | undefined;
let app: RunningApp | undefined;

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  if (!pool) throw new Error('no database');
  return (await pool.query(text, values)).rows as T[];
}

beforeAll(async () => {
  if (!onPostgres) return;
  database = `skillstake_card_crash_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  pool = new pg.Pool({ connectionString: url.toString(), max: 3 });
  stripe = await startFakeStripe();
  env = {
    DATABASE_URL: url.toString(),
    STRIPE_SECRET_KEY: 'sk_test_card_money_crash',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_card_money_crash',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  };
});

afterAll(async () => {
  await app?.stop({ signal: 'SIGKILL' });
  await pool?.end();
  await stripe?.close();
  if (database) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

function deliver(type: string, object: unknown, id: string): Promise<Response> {
  const { payload, signature } = signedStripeEvent(WEBHOOK_SECRET, { id, type, object });
  return fetch(`${app!.baseUrl}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

/** A player who paid `dollars` by card at the fake Stripe: their cookie, id and intent. */
async function playerWhoPaid(dollars: number) {
  const registered = await fetch(`${app!.baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `card_${randomBytes(4).toString('hex')}`,
      password: 'card-crash-password',
      phoneNumber: '+1 555 010 7000',
      isOver18: true,
    }),
  });
  expect(registered.status).toBe(201);
  const cookie = sessionCookieOf(registered);
  const { id } = (await registered.json()) as { id: number };
  const created = await fetch(`${app!.baseUrl}/api/create-payment-intent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ amount: String(dollars) }),
  });
  expect(created.status).toBe(200);
  const { paymentIntentId } = (await created.json()) as { paymentIntentId: string };
  const intent = stripe!.succeed(paymentIntentId);
  expect((await deliver('payment_intent.succeeded', intent, `evt_${paymentIntentId}`)).status).toBe(
    200,
  );
  return { cookie, id, intent };
}

const balanceOf = async (key: string): Promise<string | undefined> =>
  (
    await rows<{ balance: string }>(
      'select balance_cents::text as balance from ledger_accounts where key = $1',
      [key],
    )
  )[0]?.balance;

describe.skipIf(!onPostgres)('card money under SIGKILL', () => {
  it('refunds a card once when killed while Stripe had made the refund', async () => {
    app = await startApp(env);
    const { cookie, id, intent } = await playerWhoPaid(30);
    stripe!.holdAfterRefund = true;
    const asked = await fetch(`${app.baseUrl}/api/payouts/card-refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ amount: '30' }),
    });
    expect(asked.status).toBe(201);
    await until('the refund made at Stripe', async () =>
      [...stripe!.refunds.values()].some((refund) => refund.payment_intent === intent.id)
        ? true
        : undefined,
    );
    await app.stop({ signal: 'SIGKILL' });
    stripe!.holdAfterRefund = false;
    // Stripe no longer knowing the key (a day later) leaves the look-up as the only guard.
    stripe!.forgetIdempotencyKeys();
    // The dead worker's claim would lapse after its lease; let that time pass at once.
    await rows(`update card_refunds set claimed_until = now() where user_id = $1`, [id]);
    app = await startApp(env);

    const [refund] = await until('the refund recorded as made', async () => {
      const found = await rows<{ id: number; status: string; provider_refund_id: string }>(
        'select id, status, provider_refund_id from card_refunds where user_id = $1',
        [id],
      );
      return found[0]?.status === 'succeeded' ? found : undefined;
    });
    const made = [...stripe!.refunds.values()].filter((one) => one.payment_intent === intent.id);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id: refund?.provider_refund_id, amount: 3000 });
    const [moves] = await rows<{ count: string }>(
      `select count(*)::text from ledger_transfers where idempotency_key = $1`,
      [`card-refund:complete:${refund?.id}`],
    );
    expect(moves?.count).toBe('1');
    expect(await balanceOf(`card-refund:hold:${refund?.id}`)).toBe('0');
    expect(await balanceOf(`user:${id}`)).toBe('0');
  });

  it('charges a dispute back once when killed between its transfer and lock and its commit', async () => {
    app ??= await startApp(env);
    const { id, intent } = await playerWhoPaid(40);
    const dispute = fakeDispute(intent);
    const eventId = `evt_${randomBytes(8).toString('hex')}`;

    // The player's notification of the dispute, uncommitted: the server's own, written after the
    // chargeback transfer and the money lock, waits behind it.
    const blocker = await pool!.connect();
    await blocker.query('begin');
    await blocker.query(
      `insert into notifications (user_id, kind, title, body, dedupe_key)
       values ($1, 'money_locked', 'held', 'held', $2)`,
      [id, `money-locked:${dispute.id}`],
    );
    const inFlight = deliver('charge.dispute.created', dispute, eventId).catch(() => null);
    await until('the dispute waiting at its notification', async () => {
      const waiting = await rows<{ query: string }>(
        `select query from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'
           and query like '%notifications%'`,
      );
      return waiting.length > 0 ? true : undefined;
    });
    await app.stop({ signal: 'SIGKILL' });
    await blocker.query('rollback');
    blocker.release();
    expect(await inFlight).toBeNull();

    // Nothing of the dead transaction stayed: no chargeback, no lock, no event recorded.
    const [user] = await rows<{ money_locked_at: Date | null }>(
      'select money_locked_at from users where id = $1',
      [id],
    );
    expect(user?.money_locked_at).toBeNull();
    expect(await balanceOf(`user:${id}`)).toBe('4000');

    // Stripe delivers the event again, as it does until it gets a 200.
    app = await startApp(env);
    expect((await deliver('charge.dispute.created', dispute, eventId)).status).toBe(200);
    expect((await deliver('charge.dispute.created', dispute, eventId)).status).toBe(200);
    const [locked] = await rows<{ money_locked_at: Date | null }>(
      'select money_locked_at from users where id = $1',
      [id],
    );
    expect(locked?.money_locked_at).not.toBeNull();
    const [charged] = await rows<{ count: string; amount: string }>(
      `select count(*)::text, (select amount_cents::text from card_disputes where provider_dispute_id = $1) as amount
       from ledger_transfers where idempotency_key = $2`,
      [dispute.id, `chargeback:${dispute.id}`],
    );
    expect(charged).toEqual({ count: '1', amount: '4000' });
    expect(await balanceOf(`user:${id}`)).toBe('0');
  });
});
