import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerTransfers } from '#server/db/schema/ledger.ts';
import { ADMIN_BALANCE_MESSAGES } from '#shared/contracts/wallet.ts';
import { ensureAdmin } from '#server/features/accounts/admin-bootstrap.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';

let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  const username = uniqueUsername('admin');
  await ensureAdmin(t.database.db, t.bus, username, 'admin-password');
  admin = new Agent(t.app);
  const login = await admin.post('/api/login', { username, password: 'admin-password' });
  adminId = login.json().id;
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

describe('admin users API', () => {
  it('is refused to anonymous callers (401) and to players (403)', async () => {
    const { agent, user } = await signUp(t.app);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/users', undefined],
      ['POST', `/api/admin/users/${user.id}/balance`, { amount: '5' }],
    ] as const) {
      const anonymous = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode).toBe(401);
      const player = await agent.request({ method, url, ...(payload ? { payload } : {}) });
      expect(player.statusCode).toBe(403);
      expect(player.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Admin privileges required',
      });
    }
  });

  it('lists users with their balances and admin flags', async () => {
    const { user } = await signUp(t.app);
    await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '12.34' });
    const response = await admin.get('/api/admin/users');
    expect(response.statusCode).toBe(200);
    const list = response.json<Array<{ id: number; balance: number; isAdmin: boolean }>>();
    expect(list.find((u) => u.id === user.id)).toMatchObject({ balance: 12.34, isAdmin: false });
    expect(list.find((u) => u.id === adminId)).toMatchObject({ isAdmin: true });
    expect(response.body).not.toMatch(/password/i);
  });

  it('adds and subtracts signed decimal amounts, recording the admin and the reason', async () => {
    const { agent, user } = await signUp(t.app);
    const credit = await admin.post(`/api/admin/users/${user.id}/balance`, {
      amount: '25.50',
      reason: 'promo',
    });
    expect(credit.statusCode).toBe(200);
    expect(credit.json()).toEqual({ balance: 25.5 });
    const debit = await admin.post(`/api/admin/users/${user.id}/balance`, { amount: -5.25 });
    expect(debit.json()).toEqual({ balance: 20.25 });
    expect((await agent.get('/api/user')).json().balance).toBe(20.25);

    const transfers = await t.database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.referenceId, String(user.id)));
    expect(transfers.map((row) => [row.kind, row.actorUserId, row.memo])).toEqual([
      ['adjustment', adminId, 'promo'],
      ['adjustment', adminId, null],
    ]);
  });

  it('refuses a result below zero with a clear message and moves nothing', async () => {
    const { user } = await signUp(t.app);
    await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '3' });
    const response = await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '-3.01' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: 'This change would take the balance below zero (current balance $3.00).',
    });
  });

  it.each([
    [{}, ADMIN_BALANCE_MESSAGES.amountRequired],
    [{ amount: '' }, ADMIN_BALANCE_MESSAGES.amountRequired],
    [{ amount: 'ten' }, ADMIN_BALANCE_MESSAGES.amountInvalid],
    [{ amount: '1.005' }, ADMIN_BALANCE_MESSAGES.amountInvalid],
    [{ amount: '1e3' }, ADMIN_BALANCE_MESSAGES.amountInvalid],
    [{ amount: true }, ADMIN_BALANCE_MESSAGES.amountInvalid],
    [{ amount: '0' }, ADMIN_BALANCE_MESSAGES.amountZero],
    [{ amount: '1000000.01' }, ADMIN_BALANCE_MESSAGES.amountTooLarge],
  ])('refuses %o with %s', async (payload, message) => {
    const { user } = await signUp(t.app);
    const response = await admin.post(`/api/admin/users/${user.id}/balance`, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('answers 404 for an unknown user and 400-range for a malformed id', async () => {
    expect((await admin.post('/api/admin/users/999999/balance', { amount: '1' })).statusCode).toBe(
      404,
    );
    expect((await admin.post('/api/admin/users/abc/balance', { amount: '1' })).statusCode).toBe(
      400,
    );
  });

  it('adjusts once when a request is retried with the same Idempotency-Key', async () => {
    const { user } = await signUp(t.app);
    const send = () =>
      admin.request({
        method: 'POST',
        url: `/api/admin/users/${user.id}/balance`,
        payload: { amount: '7' },
        headers: { 'idempotency-key': `retry-${user.id}-abcdef` },
      });
    await send();
    const again = await send();
    expect(again.statusCode).toBe(200);
    const me = (await admin.get('/api/admin/users')).json<Array<{ id: number; balance: number }>>();
    expect(me.find((u) => u.id === user.id)?.balance).toBe(7);
  });
});

describe('GET /api/transactions', () => {
  it('returns only the caller’s movements, newest first, paged', async () => {
    const { agent, user } = await signUp(t.app);
    const other = await signUp(t.app);
    for (const amount of ['1', '2', '3', '-0.5', '4']) {
      await admin.post(`/api/admin/users/${user.id}/balance`, { amount, reason: `r${amount}` });
    }
    await admin.post(`/api/admin/users/${other.user.id}/balance`, { amount: '99' });

    const first = await agent.get('/api/transactions?limit=3');
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.items.map((i: { amount: number }) => i.amount)).toEqual([4, -0.5, 3]);
    expect(page1.items.map((i: { balanceAfter: number }) => i.balanceAfter)).toEqual([9.5, 5.5, 6]);
    expect(page1.items[0]).toMatchObject({
      kind: 'adjustment',
      reference: { type: 'user', id: String(user.id) },
      memo: 'r4',
    });
    expect(page1.nextBefore).toEqual(expect.any(Number));

    const page2 = (await agent.get(`/api/transactions?limit=3&before=${page1.nextBefore}`)).json();
    expect(page2.items.map((i: { amount: number }) => i.amount)).toEqual([2, 1]);
    expect(page2.nextBefore).toBeNull();
  });

  it('needs a session and a sane page size', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/transactions' })).statusCode).toBe(401);
    const { agent } = await signUp(t.app);
    expect((await agent.get('/api/transactions?limit=1000')).statusCode).toBe(400);
    expect((await agent.get('/api/transactions')).json()).toEqual({ items: [], nextBefore: null });
  });
});
