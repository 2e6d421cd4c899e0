import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, ledgerTransfers } from '#server/db/schema/ledger.ts';
import { outbox } from '#server/db/schema/outbox.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { PAYOUT_MESSAGES, type PayoutRequestBody } from '#shared/contracts/payouts.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  GENEROUS_RATE_LIMITS,
  markEmailVerified,
  signUp,
  type Agent,
  type TestApp,
  stillClock,
} from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../admin/testing/admin-agent.ts';
import { EXTERNAL_CRYPTO, payoutHold } from '../ledger/accounts.ts';

let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const request = (overrides: Partial<Record<keyof PayoutRequestBody, unknown>> = {}) => ({
  amount: 25,
  paymentMethod: 'crypto',
  paymentDetails: 'BTC bc1qexampleaddress',
  phoneNumber: '+1 555 010 4000',
  ...overrides,
});

async function fundedPlayer(cents: bigint) {
  const player = await signUp(t.app, { email: 'payee@example.com' });
  await markEmailVerified(t.database, player.user.id);
  await fund(t.database, player.user.id, cents);
  return player;
}

async function accountBalance(key: string): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, key));
  return row?.balanceCents ?? 0n;
}

describe('POST /api/payouts', () => {
  it('moves the amount from the wallet to the payout hold and records the request', async () => {
    const player = await fundedPlayer(10_000n);
    const response = await player.agent.post('/api/payouts', request({ amount: '40.25' }));
    expect(response.statusCode).toBe(201);
    const { payout, balance } = response.json();
    expect(balance).toBe(59.75);
    expect(payout).toEqual({
      id: expect.any(Number),
      userId: player.user.id,
      amount: 40.25,
      status: 'pending',
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qexampleaddress',
      phoneNumber: '+1 555 010 4000',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      completedAt: null,
      failureReason: null,
      // The structured fields (docs/payouts.md) beside the product's: free-text details always wait
      // for an admin.
      stage: 'review',
      stageReason: expect.stringMatching(/^details to check by hand/),
      currency: null,
      address: null,
      extraId: null,
      coinAmount: null,
      coinRate: null,
      txHash: null,
      explorerUrl: null,
      sentAt: null,
    });
    expect(await balanceOf(t.database, player.user.id)).toBe(5975n);
    expect(await accountBalance(payoutHold(payout.id))).toBe(4025n);
    const [hold] = await t.database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, `payout:hold:${payout.id}`));
    expect(hold).toMatchObject({ kind: 'payout_hold', referenceType: 'payout' });
  });

  it('accepts exactly the whole balance and refuses a cent more with "Insufficient balance"', async () => {
    const player = await fundedPlayer(1_000n);
    const over = await player.agent.post('/api/payouts', request({ amount: '10.01' }));
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
      fields: { amount: 'Insufficient balance' },
    });
    // Nothing was recorded for the refused request.
    expect((await player.agent.get('/api/payouts')).json()).toEqual([]);
    const exact = await player.agent.post('/api/payouts', request({ amount: 10 }));
    expect(exact.statusCode).toBe(201);
    expect(await balanceOf(t.database, player.user.id)).toBe(0n);
  });

  it.each([
    [{ amount: 0 }, 'amount', PAYOUT_MESSAGES.amountPositive],
    [{ amount: '-5' }, 'amount', PAYOUT_MESSAGES.amountPositive],
    [{ amount: '0.99' }, 'amount', PAYOUT_MESSAGES.amountMin],
    [{ amount: '' }, 'amount', PAYOUT_MESSAGES.amountRequired],
    [{ amount: undefined }, 'amount', PAYOUT_MESSAGES.amountRequired],
    [{ amount: 'ten' }, 'amount', PAYOUT_MESSAGES.amountInvalid],
    [{ amount: '1.005' }, 'amount', PAYOUT_MESSAGES.amountInvalid],
    [{ paymentMethod: 'paypal' }, 'paymentMethod', PAYOUT_MESSAGES.onlyCrypto],
    [{ paymentMethod: 'bank_transfer' }, 'paymentMethod', PAYOUT_MESSAGES.onlyCrypto],
    [{ paymentMethod: 'cheque' }, 'paymentMethod', PAYOUT_MESSAGES.methodInvalid],
    [{ paymentDetails: '' }, 'paymentDetails', PAYOUT_MESSAGES.detailsRequired],
    [{ paymentDetails: '   ' }, 'paymentDetails', PAYOUT_MESSAGES.detailsRequired],
    [{ paymentDetails: undefined }, 'paymentDetails', PAYOUT_MESSAGES.detailsRequired],
    [{ phoneNumber: '555 010' }, 'phoneNumber', AUTH_MESSAGES.phoneMin],
    [{ phoneNumber: 'call me maybe' }, 'phoneNumber', AUTH_MESSAGES.phonePattern],
  ])('refuses %o: %s says "%s"', async (overrides, field, message) => {
    const player = await fundedPlayer(10_000n);
    const response = await player.agent.post('/api/payouts', request(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message,
      fields: { [field]: message },
    });
    expect(await balanceOf(t.database, player.user.id)).toBe(10_000n);
  });

  it('needs a session', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payouts',
      payload: request(),
    });
    expect(response.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/payouts' })).statusCode).toBe(401);
  });

  it('is rate-limited per player', async () => {
    const limited = await createTestApp({
      database: t.database,
      clock: stillClock(),
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        payoutRequestPerUser: { name: 'payout:request:test', limit: 2, windowMs: 60_000 },
      },
    });
    try {
      const player = await signUp(limited.app);
      await fund(t.database, player.user.id, 10_000n);
      for (let i = 0; i < 2; i += 1) {
        expect((await player.agent.post('/api/payouts', request({ amount: 1 }))).statusCode).toBe(
          201,
        );
      }
      const third = await player.agent.post('/api/payouts', request({ amount: 1 }));
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: PAYOUT_MESSAGES.tooMany,
      });
      expect(third.headers['retry-after']).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });
});

describe('GET /api/payouts', () => {
  it("lists only the caller's payouts, newest first", async () => {
    const player = await fundedPlayer(10_000n);
    const other = await fundedPlayer(10_000n);
    for (const amount of [1, 2, 3]) await player.agent.post('/api/payouts', request({ amount }));
    await other.agent.post('/api/payouts', request({ amount: 9 }));
    const list = (await player.agent.get('/api/payouts')).json<Array<{ amount: number }>>();
    expect(list.map((p) => p.amount)).toEqual([3, 2, 1]);
    const paged = (await player.agent.get('/api/payouts?limit=2')).json<Array<{ id: number }>>();
    expect(paged).toHaveLength(2);
    const older = (await player.agent.get(`/api/payouts?before=${paged[1]!.id}`)).json<
      Array<{ amount: number }>
    >();
    expect(older.map((p) => p.amount)).toEqual([1]);
  });
});

describe('admin decisions', () => {
  async function pendingPayout(cents = 5_000n, amount: number | string = 30) {
    const player = await fundedPlayer(cents);
    const response = await player.agent.post('/api/payouts', request({ amount }));
    expect(response.statusCode).toBe(201);
    return { player, payoutId: response.json().payout.id as number };
  }

  it('lists the queue by status with the owner', async () => {
    const { player, payoutId } = await pendingPayout();
    const queue = (await admin.get('/api/admin/payouts?status=pending&limit=100')).json<
      Array<{ id: number; username: string; status: string }>
    >();
    expect(queue.find((p) => p.id === payoutId)).toMatchObject({
      username: player.user.username,
      status: 'pending',
      decidedBy: null,
      decidedAt: null,
    });
    expect(queue.every((p) => p.status === 'pending')).toBe(true);
    const completed = (await admin.get('/api/admin/payouts?status=completed')).json<
      Array<{ id: number }>
    >();
    expect(completed.some((p) => p.id === payoutId)).toBe(false);
  });

  it('complete sends the hold to external:crypto once, records who and when, and mails the player', async () => {
    const { player, payoutId } = await pendingPayout();
    const externalBefore = await accountBalance(EXTERNAL_CRYPTO);
    const response = await admin.post(`/api/admin/payouts/${payoutId}/complete`, {
      note: 'tx 0xabc',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: payoutId,
      status: 'completed',
      completedAt: expect.any(String),
      decidedBy: adminId,
      decidedAt: expect.any(String),
      failureReason: null,
    });
    expect(await accountBalance(payoutHold(payoutId))).toBe(0n);
    expect(await accountBalance(EXTERNAL_CRYPTO)).toBe(externalBefore + 3_000n);
    expect(await balanceOf(t.database, player.user.id)).toBe(2_000n);

    const again = await admin.post(`/api/admin/payouts/${payoutId}/complete`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'PAYOUT_NOT_PENDING',
      message: PAYOUT_MESSAGES.alreadyCompleted,
    });
    const fail = await admin.post(`/api/admin/payouts/${payoutId}/fail`, { reason: 'late' });
    expect(fail.statusCode).toBe(409);
    expect(await accountBalance(EXTERNAL_CRYPTO)).toBe(externalBefore + 3_000n);

    const mine = (await player.agent.get('/api/payouts')).json<Array<{ status: string }>>();
    expect(mine[0]).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    const audit = await auditEntriesFor(t.database, { type: 'payout', id: payoutId });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'payout.complete',
      actorUserId: adminId,
      reason: 'tx 0xabc',
      details: { userId: player.user.id, amountCents: '3000', paymentMethod: 'crypto' },
    });
    const mail = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `payout-complete:${payoutId}`));
    expect(mail[0]).toMatchObject({ recipient: 'payee@example.com' });
  });

  it('fail returns the hold to the wallet once, with the reason shown to the player', async () => {
    const { player, payoutId } = await pendingPayout(5_000n, '12.34');
    expect(await balanceOf(t.database, player.user.id)).toBe(3_766n);
    const missing = await admin.post(`/api/admin/payouts/${payoutId}/fail`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(PAYOUT_MESSAGES.reasonRequired);

    const response = await admin.post(`/api/admin/payouts/${payoutId}/fail`, {
      reason: 'Address is not a valid BTC address',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'failed',
      completedAt: null,
      failureReason: 'Address is not a valid BTC address',
      decidedBy: adminId,
    });
    expect(await balanceOf(t.database, player.user.id)).toBe(5_000n);
    expect(await accountBalance(payoutHold(payoutId))).toBe(0n);

    const again = await admin.post(`/api/admin/payouts/${payoutId}/fail`, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PAYOUT_MESSAGES.alreadyFailed);
    expect((await admin.post(`/api/admin/payouts/${payoutId}/complete`)).statusCode).toBe(409);
    expect(await balanceOf(t.database, player.user.id)).toBe(5_000n);

    const mine = (await player.agent.get('/api/payouts')).json<Array<{ failureReason: string }>>();
    expect(mine[0]?.failureReason).toBe('Address is not a valid BTC address');
    const audit = await auditEntriesFor(t.database, { type: 'payout', id: payoutId });
    expect(audit.map((entry) => [entry.action, entry.reason])).toEqual([
      ['payout.fail', 'Address is not a valid BTC address'],
    ]);
  });

  it('answers 404 for an unknown payout and 400 for a malformed id', async () => {
    expect((await admin.post('/api/admin/payouts/999999/complete')).statusCode).toBe(404);
    expect((await admin.post('/api/admin/payouts/abc/complete')).statusCode).toBe(400);
  });
});
