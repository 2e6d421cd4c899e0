import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signNowPaymentsBody } from '#server/features/payments/providers/nowpayments-signature.ts';
import {
  FAKE_PAYOUT_ACCOUNT,
  startFakeNowPaymentsPayouts,
  type FakeNowPaymentsPayouts,
} from '#server/features/payouts/testing/fake-nowpayments-payouts.ts';
import { adminCall, reachable, startApp, until, type RunningApp } from './harness.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

/**
 * The payout sender killed with SIGKILL (DESIGN §15, issue 24): once while NOWPayments has made
 * the withdrawal but its answer has not come back, once while the 2FA verification is on its
 * way. Each time the restarted server finds the withdrawal the dead one made, verifies it, and
 * the payout completes with exactly one withdrawal at the provider and one ledger movement.
 *
 * PostgreSQL only (the lease a dead sender leaves is lapsed by hand, as minutes would); it
 * creates and drops a database of its own.
 */
const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const IPN_SECRET = 'crash-payout-ipn-secret';
const TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

const onPostgres = await reachable(ADMIN_URL);

let database = '';
let env: Record<string, string> = {};
let pool: pg.Pool | undefined;
let fake: FakeNowPaymentsPayouts | undefined;
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
  database = `skillstake_payout_crash_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  fake = await startFakeNowPaymentsPayouts();
  env = {
    DATABASE_URL: url.toString(),
    NOWPAYMENTS_API_KEY: FAKE_PAYOUT_ACCOUNT.apiKey,
    NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
    NOWPAYMENTS_API_BASE: fake.url,
    NOWPAYMENTS_EMAIL: FAKE_PAYOUT_ACCOUNT.email,
    NOWPAYMENTS_PASSWORD: FAKE_PAYOUT_ACCOUNT.password,
    NOWPAYMENTS_2FA_SECRET: FAKE_PAYOUT_ACCOUNT.twoFactorSecret,
  };
});

afterAll(async () => {
  await app?.stop({ signal: 'SIGKILL' });
  await pool?.end();
  await fake?.close();
  if (database) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

/** Registers a player, gives them money, and asks for a payout to a TRON address. */
async function requestPayout(baseUrl: string, amount: number): Promise<number> {
  const username = `crash_${randomBytes(4).toString('hex')}`;
  const registered = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password: 'crash-payout-password',
      phoneNumber: '+1 555 010 7000',
      isOver18: true,
    }),
  });
  expect(registered.status).toBe(201);
  const cookie = sessionCookieOf(registered);
  const { id } = (await registered.json()) as { id: number };
  await adminCall(baseUrl, 'POST', `/api/admin/users/${id}/balance`, { amount: String(amount) });
  const asked = await fetch(`${baseUrl}/api/payouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({
      amount,
      paymentMethod: 'crypto',
      phoneNumber: '+1 555 010 7000',
      currency: 'usdttrc20',
      address: TRON,
    }),
  });
  expect(asked.status).toBe(201);
  const { payout } = (await asked.json()) as { payout: { id: number; stageReason: string } };
  // No approved ID: it waits for review until the operator's APPROVE & SEND.
  expect(payout.stageReason).toBe('ID not yet approved');
  return payout.id;
}

/** Kills the server while the fake holds the named call open, lapses the lease, restarts. */
async function killDuring(route: 'create' | 'verify', payoutId: number): Promise<void> {
  if (!fake || !app) throw new Error('not started');
  const before = fake.requests.length;
  fake.fail(route, 'act-then-hold');
  await adminCall(app.baseUrl, 'POST', `/api/admin/payouts/${payoutId}/approve`);
  const path = route === 'create' ? '/v1/payout' : '/verify';
  await until(`the ${route} call`, async () =>
    fake!.requests.slice(before).some((request) => request.path.endsWith(path)) ? true : undefined,
  );
  await app.stop({ signal: 'SIGKILL' });
  fake.failures.clear();
  // The dead sender's claim would lapse after its lease; let that time pass at once.
  await rows(`update payouts set next_attempt_at = now() where id = $1`, [payoutId]);
  app = await startApp(env);
}

describe.skipIf(!onPostgres)('the payout sender under SIGKILL', () => {
  it('sends each payout once when killed after the withdrawal was made or during its verification', async () => {
    app = await startApp(env);
    const first = await requestPayout(app.baseUrl, 20);
    await killDuring('create', first);
    const second = await requestPayout(app.baseUrl, 30);
    await killDuring('verify', second);

    for (const payoutId of [first, second]) {
      const [row] = await until(`payout ${payoutId} on its way`, async () => {
        const found = await rows<{ stage: string; provider_payout_id: string | null }>(
          'select stage, provider_payout_id from payouts where id = $1',
          [payoutId],
        );
        const made = found[0]?.provider_payout_id;
        return made && fake?.withdrawals.get(made)?.status === 'PROCESSING' ? found : undefined;
      });
      const made = [...fake!.withdrawals.values()].filter((made) =>
        made.unique_external_id?.startsWith(`payout-${payoutId}-`),
      );
      expect(made).toHaveLength(1);
      const withdrawal = fake!.withdrawals.get(row!.provider_payout_id ?? '');
      expect(withdrawal?.status).toBe('PROCESSING');

      // NOWPayments finishes it and says so by IPN.
      const finished = fake!.setStatus(withdrawal!.id, 'FINISHED', 'e'.repeat(64));
      const delivered = await fetch(`${app!.baseUrl}/api/webhooks/nowpayments/payouts`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-nowpayments-sig': signNowPaymentsBody(finished, IPN_SECRET),
        },
        body: JSON.stringify(finished),
      });
      expect(delivered.status).toBe(200);
    }

    const ended = await rows<{ status: string; moves: string; hold: string }>(
      `select p.status,
         (select count(*) from ledger_transfers t where t.idempotency_key = 'payout:complete:' || p.id)::text as moves,
         (select balance_cents::text from ledger_accounts a where a.key = 'payout:hold:' || p.id) as hold
       from payouts p order by p.id`,
    );
    expect(ended).toEqual([
      { status: 'completed', moves: '1', hold: '0' },
      { status: 'completed', moves: '1', hold: '0' },
    ]);
    const [crypto] = await rows<{ balance: string }>(
      `select balance_cents::text as balance from ledger_accounts where key = 'external:crypto'`,
    );
    expect(crypto?.balance).toBe('5000');
    expect(fake!.withdrawals.size).toBe(2);
  });
});
