import { eq } from 'drizzle-orm';
import { createAppContext } from '#server/context.ts';
import { parseEnv } from '#server/env.ts';
import { users } from '#server/db/schema/users.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminPayoutView, PayoutView } from '#shared/contracts/payouts.ts';
import { payouts, type Payout } from '#server/db/schema/payouts.ts';
import { EXTERNAL_CRYPTO, payoutHold } from '#server/features/ledger/accounts.ts';
import { ledgerAccounts } from '#server/db/schema/ledger.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { selectPayoutProvider } from './providers/select-payout-provider.ts';
import type { PayoutProvider } from './providers/types.ts';
import { attemptPayout, claimNextPayout, externalIdOf, runSenderPass } from './sender.ts';
import {
  FAKE_PAYOUT_ACCOUNT,
  PAYOUT_FAILURES,
  startFakeNowPaymentsPayouts,
  type FakeNowPaymentsPayouts,
} from './testing/fake-nowpayments-payouts.ts';
import { verifiedPlayer } from './testing/players.ts';

/**
 * Payouts in minutes (docs/payouts.md, issue 24): the rules that let a payout leave without a
 * person, the address checked before money is held, and the sender that makes each withdrawal once
 * through crashes, lost answers, retries and a second instance's sender.
 */

const TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const silent = { warn: () => {}, error: () => {}, info: () => {} } as unknown as FastifyBaseLogger;

const request = (overrides: Record<string, unknown> = {}) => ({
  amount: 20,
  paymentMethod: 'crypto',
  phoneNumber: '+1 555 010 2400',
  currency: 'usdttrc20',
  address: TRON,
  ...overrides,
});

const ctxOf = (t: TestApp) =>
  createAppContext({ env: t.env, database: t.database, bus: t.bus, clock: clockNow });
let clockNow = () => new Date();

async function holdOf(t: TestApp, payoutId: number): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, payoutHold(payoutId)));
  return row?.balance ?? 0n;
}

async function rowOf(t: TestApp, payoutId: number): Promise<Payout> {
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (!row) throw new Error(`no payout ${payoutId}`);
  return row;
}

/** Makes a payout due for the sender now, as the passing of its wait would. */
async function makeDue(t: TestApp, payoutId: number): Promise<void> {
  await t.database.db
    .update(payouts)
    .set({ nextAttemptAt: new Date(Date.now() - 1000) })
    .where(eq(payouts.id, payoutId));
}

async function externalCrypto(t: TestApp): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, EXTERNAL_CRYPTO));
  return row?.balance ?? 0n;
}

describe('the rules and the address, with the sandbox provider', () => {
  let t: TestApp;
  let admin: Agent;
  let provider: PayoutProvider;
  let now = new Date();
  beforeAll(async () => {
    clockNow = () => now;
    t = await createTestApp({
      clock: () => now,
      // Every test player signs in from 127.0.0.1, each on a device of its own, as players behind
      // one carrier do: nothing holds their payouts.
      env: { AUTO_PAYOUT_MAX: '500' },
    });
    ({ agent: admin } = await signInAdmin(t));
    const selected = selectPayoutProvider(t.env, () => now);
    if (!selected) throw new Error('the sandbox should send payouts');
    provider = selected;
  });
  beforeEach(() => {
    now = new Date();
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    clockNow = () => new Date();
    await t.close();
  });

  it('queues a payout that meets every rule, sends it at once and completes it a minute later', async () => {
    const player = await verifiedPlayer(t, admin, 10_000n);
    const response = await player.agent.post('/api/payouts', request());
    expect(response.statusCode).toBe(201);
    const { payout } = response.json<{ payout: PayoutView }>();
    expect(payout).toMatchObject({
      status: 'pending',
      stage: 'queued',
      stageReason: null,
      currency: 'usdttrc20',
      address: TRON,
      paymentDetails: `USDT (TRON) ${TRON}`,
    });

    expect(await runSenderPass(ctxOf(t), provider, silent)).toBeGreaterThanOrEqual(1);
    const sent = await rowOf(t, payout.id);
    expect(sent).toMatchObject({ stage: 'sent', status: 'pending', provider: 'sandbox' });
    expect(sent.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sent.coinAmount).toBe('20');
    expect(await holdOf(t, payout.id)).toBe(2000n);

    now = new Date(now.getTime() + 61_000);
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    const done = await rowOf(t, payout.id);
    expect(done).toMatchObject({ stage: 'completed', status: 'completed', decidedBy: null });
    expect(await holdOf(t, payout.id)).toBe(0n);

    const list = (await player.agent.get('/api/payouts')).json<PayoutView[]>();
    expect(list[0]).toMatchObject({ id: payout.id, status: 'completed', stage: 'completed' });
    const kinds = (await player.agent.get('/api/notifications')).json<{
      notifications: Array<{ kind: string; title: string }>;
    }>();
    expect(kinds.notifications.map((row) => row.kind)).toEqual(
      expect.arrayContaining(['payout_update', 'payout_completed']),
    );
  });

  it.each([
    ['over the automatic maximum', { amount: 600 }, 'over $500'],
    [
      'free-text details only (a SPEC client)',
      { currency: undefined, address: undefined, paymentDetails: 'BTC bc1qsomething' },
      'details to check by hand',
    ],
  ])('holds a payout for review when it is %s', async (_name, overrides, reason) => {
    const player = await verifiedPlayer(t, admin, 100_000n);
    const response = await player.agent.post('/api/payouts', request(overrides));
    expect(response.statusCode).toBe(201);
    const { payout } = response.json<{ payout: PayoutView }>();
    expect(payout.stage).toBe('review');
    expect(payout.stageReason).toBe(reason);
    expect(await runSenderPass(ctxOf(t), provider, silent)).toBe(0);
    expect((await rowOf(t, payout.id)).stage).toBe('review');
  });

  it('holds the payout of a player without an approved ID, suspended, or on a break', async () => {
    const unverified = await signUp(t.app);
    await fund(t.database, unverified.user.id, 5000n);
    const first = await unverified.agent.post('/api/payouts', request());
    expect(first.json<{ payout: PayoutView }>().payout).toMatchObject({
      stage: 'review',
      stageReason: 'ID not yet approved',
    });

    const suspended = await verifiedPlayer(t, admin, 5000n);
    await t.database.db
      .update(users)
      .set({ suspendedAt: now, suspensionReason: 'checking results' })
      .where(eq(users.id, suspended.user.id));
    const second = await suspended.agent.post('/api/payouts', request());
    expect(second.json<{ payout: PayoutView }>().payout.stageReason).toBe('account suspended');

    const resting = await verifiedPlayer(t, admin, 5000n);
    const paused = await resting.agent.post('/api/responsible-gaming/time-out', {
      days: 1,
    });
    expect(paused.statusCode).toBe(200);
    const third = await resting.agent.post('/api/payouts', request());
    expect(third.json<{ payout: PayoutView }>().payout.stageReason).toBe('on a break from play');
  });

  it.each([
    ['usdttrc20', TRON, 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWw'],
    [
      'btc',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdO',
    ],
    [
      'eth',
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0x52908400098527886E0F7030069857D2E4169E',
    ],
    ['ltc', 'LZ4u3nQMVQb2WkEkYVJhQX5ynEJbmn1stY', 'XZ4u3nQMVQb2WkEkYVJhQX5ynEJbmn1stY'],
  ])('checks a %s address by its format before holding money', async (currency, good, bad) => {
    const player = await verifiedPlayer(t, admin, 10_000n);
    const refused = await player.agent.post('/api/payouts', request({ currency, address: bad }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ fields: Record<string, string> }>().fields.address).toMatch(
      /^This is not a valid .+ address\.$/,
    );
    expect(await balanceOf(t.database, player.user.id)).toBe(10_000n);
    const accepted = await player.agent.post('/api/payouts', request({ currency, address: good }));
    expect(accepted.statusCode).toBe(201);
  });

  it('refuses a coin not offered, and a memo the coin does not take', async () => {
    const player = await verifiedPlayer(t, admin, 10_000n);
    const xrp = await player.agent.post(
      '/api/payouts',
      request({ currency: 'xrp', address: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh', extraId: '12' }),
    );
    expect(xrp.statusCode).toBe(400);
    expect(xrp.json<{ fields: Record<string, string> }>().fields.currency).toBe(
      'Payouts are not offered in this coin',
    );
    const memo = await player.agent.post('/api/payouts', request({ extraId: '99' }));
    expect(memo.statusCode).toBe(400);
    expect(memo.json<{ fields: Record<string, string> }>().fields.extraId).toBe(
      'USDT (TRON) payouts take no memo',
    );
    expect(await balanceOf(t.database, player.user.id)).toBe(10_000n);
  });

  it('lets an admin approve & send a held payout, and refuses to hand-decide one being sent', async () => {
    const player = await verifiedPlayer(t, admin, 100_000n);
    const { payout } = (await player.agent.post('/api/payouts', request({ amount: 600 }))).json<{
      payout: PayoutView;
    }>();
    const approved = await admin.post(`/api/admin/payouts/${payout.id}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ stage: 'queued', stageReason: null });
    const again = await admin.post(`/api/admin/payouts/${payout.id}/approve`);
    expect(again.statusCode).toBe(409);

    await runSenderPass(ctxOf(t), provider, silent);
    expect((await rowOf(t, payout.id)).stage).toBe('sent');
    const complete = await admin.post(`/api/admin/payouts/${payout.id}/complete`, {});
    expect(complete.statusCode).toBe(409);
    expect(complete.json<{ message: string }>().message).toMatch(/already on its way/);
    const fail = await admin.post(`/api/admin/payouts/${payout.id}/fail`, { reason: 'no' });
    expect(fail.statusCode).toBe(409);

    const simulated = await admin.post(`/api/sandbox/payouts/${payout.id}/simulate`, {
      status: 'failed',
    });
    expect(simulated.statusCode).toBe(200);
    expect(simulated.json()).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(await holdOf(t, payout.id)).toBe(0n);
    expect(await balanceOf(t.database, player.user.id)).toBe(100_000n);
  });

  it('refuses approve & send of a SPEC payout with no address', async () => {
    const player = await verifiedPlayer(t, admin, 10_000n);
    const { payout } = (
      await player.agent.post(
        '/api/payouts',
        request({ currency: undefined, address: undefined, paymentDetails: 'BTC bc1q' }),
      )
    ).json<{ payout: PayoutView }>();
    const approved = await admin.post(`/api/admin/payouts/${payout.id}/approve`);
    expect(approved.statusCode).toBe(409);
    expect(approved.json<{ message: string }>().message).toMatch(/no coin address/);
    expect((await admin.post(`/api/admin/payouts/${payout.id}/complete`, {})).statusCode).toBe(200);
  });

  it('shows the sandbox balance of every offered coin to the admin', async () => {
    const response = await admin.get('/api/admin/payouts/balances');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      provider: 'sandbox',
      balances: expect.arrayContaining([expect.objectContaining({ currency: 'usdttrc20' })]),
    });
  });
});

describe('a player named by a risk signal', () => {
  it('waits for a review by our team, and only the admin reads which signal', async () => {
    const t = await createTestApp();
    try {
      const { agent: admin } = await signInAdmin(t);
      // A neighbour on the same address and browser build: not a reason to hold anything.
      await signUp(t.app);
      const neighbour = await verifiedPlayer(t, admin, 5000n);
      const sent = await neighbour.agent.post('/api/payouts', request());
      expect(sent.json<{ payout: PayoutView }>().payout.stage).toBe('queued');

      const player = await verifiedPlayer(t, admin, 5000n);
      // A second account opened on the player's browser.
      await signUp(t.app, {}, player.agent.deviceId);
      const response = await player.agent.post('/api/payouts', request());
      const { payout } = response.json<{ payout: PayoutView }>();
      expect(payout).toMatchObject({ stage: 'review', stageReason: 'a review by our team' });
      const listed = (await player.agent.get('/api/payouts')).json<PayoutView[]>();
      expect(JSON.stringify(listed)).not.toContain('flagged');
      const queue = (await admin.get('/api/admin/payouts')).json<AdminPayoutView[]>();
      expect(queue.find((row) => row.id === payout.id)?.stageReason).toBe('flagged: shared device');
    } finally {
      await t.close();
    }
  });
});

describe('who sends payouts', () => {
  const env = (extra: Record<string, string>) => parseEnv({ DATA_DIR: '/tmp/unused', ...extra });
  it('is the sandbox only while no real provider takes deposits', () => {
    expect(selectPayoutProvider(env({}), () => new Date())?.name).toBe('sandbox');
    // Real card money in, and nothing that sends: every payout waits for an admin.
    expect(
      selectPayoutProvider(
        env({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }),
        () => new Date(),
      ),
    ).toBeNull();
    expect(selectPayoutProvider(env({ NOWPAYMENTS_API_KEY: 'key' }), () => new Date())).toBeNull();
    expect(
      selectPayoutProvider(
        env({
          NOWPAYMENTS_API_KEY: 'key',
          NOWPAYMENTS_EMAIL: FAKE_PAYOUT_ACCOUNT.email,
          NOWPAYMENTS_PASSWORD: FAKE_PAYOUT_ACCOUNT.password,
          NOWPAYMENTS_2FA_SECRET: FAKE_PAYOUT_ACCOUNT.twoFactorSecret,
        }),
        () => new Date(),
      )?.name,
    ).toBe('nowpayments');
  });
});

describe('sending through NOWPayments, exactly once', () => {
  let fake: FakeNowPaymentsPayouts;
  let t: TestApp;
  let admin: Agent;
  let provider: PayoutProvider;
  const ipnSecret = 'payout-ipn-secret-for-tests';

  beforeAll(async () => {
    fake = await startFakeNowPaymentsPayouts();
    t = await createTestApp({
      env: {
        NOWPAYMENTS_API_KEY: FAKE_PAYOUT_ACCOUNT.apiKey,
        NOWPAYMENTS_IPN_SECRET: ipnSecret,
        NOWPAYMENTS_API_BASE: fake.url,
        NOWPAYMENTS_EMAIL: FAKE_PAYOUT_ACCOUNT.email,
        NOWPAYMENTS_PASSWORD: FAKE_PAYOUT_ACCOUNT.password,
        NOWPAYMENTS_2FA_SECRET: FAKE_PAYOUT_ACCOUNT.twoFactorSecret,
      },
    });
    ({ agent: admin } = await signInAdmin(t));
    const selected = selectPayoutProvider(t.env, () => new Date());
    if (selected?.name !== 'nowpayments') throw new Error('NOWPayments should send payouts');
    provider = selected;
  });
  afterEach(async () => {
    fake.failures.clear();
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function queued(
    cents = 10_000n,
    amount = 20,
  ): Promise<{ payout: PayoutView; userId: number }> {
    const player = await verifiedPlayer(t, admin, cents);
    const response = await player.agent.post('/api/payouts', request({ amount }));
    expect(response.statusCode).toBe(201);
    const { payout } = response.json<{ payout: PayoutView }>();
    expect(payout.stage).toBe('queued');
    return { payout, userId: player.user.id };
  }

  it('asks NOWPayments to check the address before holding money', async () => {
    const player = await verifiedPlayer(t, admin, 5000n);
    const refused = await player.agent.post(
      '/api/payouts',
      request({ address: 'TBadBadBadBadBadBadBadBadBadBadBad' }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ fields: Record<string, string> }>().fields.address).toBe(
      'This is not a valid USDT (TRON) address.',
    );
    fake.fail('validate', PAYOUT_FAILURES.serverError);
    const down = await player.agent.post('/api/payouts', request());
    expect(down.statusCode).toBe(503);
    expect(await balanceOf(t.database, player.user.id)).toBe(5000n);
  });

  it('converts at the estimate, sends one verified withdrawal and follows it to completion', async () => {
    const { payout } = await queued();
    await runSenderPass(ctxOf(t), provider, silent);
    const externalId = externalIdOf(await rowOf(t, payout.id));
    expect(fake.madeFor(externalId)).toBe(1);
    const row = await rowOf(t, payout.id);
    expect(row).toMatchObject({
      stage: 'sending',
      provider: 'nowpayments',
      coinAmount: '20',
    });
    expect(row.coinRate).toBe('1');
    const withdrawal = fake.withdrawals.get(row.providerPayoutId ?? '');
    expect(withdrawal?.status).toBe('PROCESSING');
    expect(fake.codesAccepted).toHaveLength(1);

    fake.setStatus(withdrawal!.id, 'SENDING', 'f'.repeat(64));
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(await rowOf(t, payout.id)).toMatchObject({ stage: 'sent', txHash: 'f'.repeat(64) });

    fake.setStatus(withdrawal!.id, 'FINISHED');
    const before = await externalCrypto(t);
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(await rowOf(t, payout.id)).toMatchObject({ status: 'completed', stage: 'completed' });
    expect(await externalCrypto(t)).toBe(before + 2000n);
    expect(fake.madeFor(externalId)).toBe(1);
  });

  it('finds the first withdrawal when the answer to its creation was lost, and sends no second', async () => {
    const { payout } = await queued();
    fake.fail('create', 'act-then-hang-up');
    await runSenderPass(ctxOf(t), provider, silent);
    const externalId = externalIdOf(await rowOf(t, payout.id));
    expect(fake.madeFor(externalId)).toBe(1);
    expect((await rowOf(t, payout.id)).providerPayoutId).toBeNull();

    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(fake.madeFor(externalId)).toBe(1);
    const row = await rowOf(t, payout.id);
    expect(row.stage).toBe('sending');
    expect(fake.withdrawals.get(row.providerPayoutId ?? '')?.status).toBe('PROCESSING');
  });

  it('verifies on the next attempt when the sender died during verification', async () => {
    const { payout } = await queued();
    fake.fail('verify', 'hang-up');
    await runSenderPass(ctxOf(t), provider, silent);
    const row = await rowOf(t, payout.id);
    expect(fake.withdrawals.get(row.providerPayoutId ?? '')?.status).toBe('WAITING');
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(fake.withdrawals.get(row.providerPayoutId ?? '')?.status).toBe('PROCESSING');
    expect(fake.madeFor(externalIdOf(row))).toBe(1);
  });

  it('takes over a payout whose sender died before it recorded anything, once its lease lapsed', async () => {
    const { payout } = await queued();
    // A claim taken and never finished: the sender was killed.
    await t.database.db
      .update(payouts)
      .set({ claimToken: 'dead-sender', nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(eq(payouts.id, payout.id));
    expect(await runSenderPass(ctxOf(t), provider, silent)).toBe(0);
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(fake.madeFor(externalIdOf(await rowOf(t, payout.id)))).toBe(1);
  });

  it('retries a provider that answers 5xx or times out with a growing wait, and pays once', async () => {
    const { payout } = await queued();
    fake.fail('create', PAYOUT_FAILURES.serverError);
    await runSenderPass(ctxOf(t), provider, silent);
    const first = await rowOf(t, payout.id);
    // The creation may have happened: from the claim on, no hand may end it.
    expect(first).toMatchObject({ stage: 'sending', claimToken: null, attempts: 1 });
    const fail = await admin.post(`/api/admin/payouts/${payout.id}/fail`, { reason: 'stuck' });
    expect(fail.statusCode).toBe(409);
    const complete = await admin.post(`/api/admin/payouts/${payout.id}/complete`, {});
    expect(complete.statusCode).toBe(409);
    const firstWait = first.nextAttemptAt!.getTime() - Date.now();
    expect(firstWait).toBeGreaterThan(10_000);

    fake.fail('list', PAYOUT_FAILURES.badGateway);
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    const second = await rowOf(t, payout.id);
    expect(second.attempts).toBe(2);
    expect(second.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(firstWait);

    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(fake.madeFor(externalIdOf(second))).toBe(1);
    expect((await rowOf(t, payout.id)).stage).toBe('sending');
  });

  it('refuses hand decisions and the deletion of the account once a sender has claimed the payout', async () => {
    const { payout, userId } = await queued();
    const claimed = await claimNextPayout(ctxOf(t));
    expect(claimed).toMatchObject({ id: payout.id, stage: 'sending' });
    expect(
      (await admin.post(`/api/admin/payouts/${payout.id}/fail`, { reason: 'x' })).statusCode,
    ).toBe(409);
    expect((await admin.post(`/api/admin/payouts/${payout.id}/complete`, {})).statusCode).toBe(409);
    const deletion = await admin.request({ method: 'DELETE', url: `/api/admin/users/${userId}` });
    expect(deletion.statusCode).toBe(409);
    expect(await holdOf(t, payout.id)).toBe(2000n);
    // The claim's sender finishes the attempt: one withdrawal.
    await attemptPayout(ctxOf(t), provider, claimed!, silent);
    expect(fake.madeFor(externalIdOf(claimed!))).toBe(1);
  });

  it('lets two instances race their senders over the same queue without a second withdrawal', async () => {
    const made = await Promise.all([queued(), queued(), queued(), queued()]);
    const [a, b] = await Promise.all([
      runSenderPass(ctxOf(t), provider, silent),
      runSenderPass(ctxOf(t), provider, silent),
    ]);
    expect(a + b).toBeGreaterThanOrEqual(4);
    for (const { payout } of made) {
      expect(fake.madeFor(externalIdOf(await rowOf(t, payout.id)))).toBe(1);
    }
  });

  it('never fails a payout for a refused look-up, nor when a creation was asked before', async () => {
    const { payout } = await queued();
    fake.fail('list', PAYOUT_FAILURES.badAddress);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(await rowOf(t, payout.id)).toMatchObject({ status: 'pending', stage: 'sending' });

    // A creation whose answer was lost, then a listing that does not show it yet, a short
    // balance and a refused creation: the payout stays with the sender, the money held.
    await makeDue(t, payout.id);
    fake.fail('create', 'act-then-hang-up');
    await runSenderPass(ctxOf(t), provider, silent);
    const asked = await rowOf(t, payout.id);
    expect(asked).toMatchObject({ provider: 'nowpayments', providerPayoutId: null });
    fake.balances.set('usdttrc20', 5);
    try {
      await makeDue(t, payout.id);
      fake.fail('list', { status: 200, body: { payouts: [] } });
      await runSenderPass(ctxOf(t), provider, silent);
      expect(await rowOf(t, payout.id)).toMatchObject({
        stage: 'sending',
        stageReason: 'waiting for the provider balance',
      });
    } finally {
      fake.balances.set('usdttrc20', 100_000);
    }
    await makeDue(t, payout.id);
    fake.fail('list', { status: 200, body: { payouts: [] } });
    fake.fail('create', PAYOUT_FAILURES.badAddress);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(await rowOf(t, payout.id)).toMatchObject({ status: 'pending', stage: 'sending' });
    expect(await holdOf(t, payout.id)).toBe(2000n);
    // The listing catches up: the first withdrawal is found and followed, none made again.
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(fake.madeFor(externalIdOf(asked))).toBe(1);
    expect((await rowOf(t, payout.id)).providerPayoutId).not.toBeNull();
  });

  it('lets a sender whose lease lapsed make nothing once another has claimed the payout', async () => {
    const { payout } = await queued();
    const first = await claimNextPayout(ctxOf(t));
    await makeDue(t, payout.id);
    const second = await claimNextPayout(ctxOf(t));
    expect(second?.claimToken).not.toBe(first?.claimToken);
    await attemptPayout(ctxOf(t), provider, first!, silent);
    expect(fake.madeFor(externalIdOf(first!))).toBe(0);
    await attemptPayout(ctxOf(t), provider, second!, silent);
    expect(fake.madeFor(externalIdOf(second!))).toBe(1);
  });

  it('fails the payout and returns the money when NOWPayments refuses the withdrawal', async () => {
    const { payout, userId } = await queued();
    fake.fail('create', PAYOUT_FAILURES.badAddress);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(await rowOf(t, payout.id)).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(await balanceOf(t.database, userId)).toBe(10_000n);
  });

  it('waits, with a warning, while the provider holds less of the coin than the payout', async () => {
    fake.balances.set('usdttrc20', 5);
    try {
      const { payout } = await queued();
      await runSenderPass(ctxOf(t), provider, silent);
      expect(await rowOf(t, payout.id)).toMatchObject({
        stage: 'queued',
        stageReason: 'waiting for the provider balance',
      });
      const balances = (await admin.get('/api/admin/payouts/balances')).json<{
        balances: Array<{ currency: string; short: boolean }>;
      }>();
      expect(balances.balances.find((row) => row.currency === 'usdttrc20')?.short).toBe(true);
    } finally {
      fake.balances.set('usdttrc20', 100_000);
    }
  });

  it('follows a signed IPN once, and refuses a forged one', async () => {
    const { payout } = await queued();
    await runSenderPass(ctxOf(t), provider, silent);
    const row = await rowOf(t, payout.id);
    fake.setStatus(row.providerPayoutId!, 'FINISHED', 'a'.repeat(64));
    const { body, signature } = fake.ipn(row.providerPayoutId!, ipnSecret);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/nowpayments/payouts',
      headers: { 'content-type': 'application/json', 'x-nowpayments-sig': 'ab'.repeat(64) },
      payload: body,
    });
    expect(forged.statusCode).toBe(400);
    expect((await rowOf(t, payout.id)).status).toBe('pending');
    const before = await externalCrypto(t);
    for (let copy = 0; copy < 2; copy += 1) {
      const delivered = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/nowpayments/payouts',
        headers: { 'content-type': 'application/json', 'x-nowpayments-sig': signature },
        payload: body,
      });
      expect(delivered.statusCode).toBe(200);
    }
    expect(await rowOf(t, payout.id)).toMatchObject({
      status: 'completed',
      txHash: 'a'.repeat(64),
    });
    expect(await externalCrypto(t)).toBe(before + 2000n);
  });

  it('answers a withdrawal the provider failed by returning the money', async () => {
    const { payout, userId } = await queued();
    await runSenderPass(ctxOf(t), provider, silent);
    const row = await rowOf(t, payout.id);
    fake.setStatus(row.providerPayoutId!, 'FAILED');
    await makeDue(t, payout.id);
    await runSenderPass(ctxOf(t), provider, silent);
    expect(await rowOf(t, payout.id)).toMatchObject({ status: 'failed', stage: 'failed' });
    expect(await balanceOf(t.database, userId)).toBe(10_000n);
  });
});
