import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditPage } from '#shared/contracts/admin.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../admin/testing/admin-agent.ts';

let t: TestApp;
let admin: Agent;
let adminId: number;
let adminName: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin, id: adminId } = await signInAdmin(t));
  adminName = (await admin.get('/api/user')).json().username;
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

describe('the audit log', () => {
  it('records a balance change with who, what and why, once even when the request is retried', async () => {
    const { user } = await signUp(t.app);
    const send = () =>
      admin.request({
        method: 'POST',
        url: `/api/admin/users/${user.id}/balance`,
        payload: { amount: '-0.00', reason: 'x' },
      });
    // A refused change records nothing.
    expect((await send()).statusCode).toBe(400);
    for (let i = 0; i < 2; i += 1) {
      await admin.request({
        method: 'POST',
        url: `/api/admin/users/${user.id}/balance`,
        payload: { amount: '12.50', reason: 'Tournament prize' },
        headers: { 'idempotency-key': `audit-retry-${user.id}` },
      });
    }
    const entries = await auditEntriesFor(t.database, { type: 'user', id: user.id });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: adminId,
      action: 'balance.adjust',
      reason: 'Tournament prize',
      details: { amountCents: '1250', balanceAfterCents: '1250', transferId: expect.any(String) },
      createdAt: expect.any(Date),
    });
  });

  it('GET /api/admin/audit pages newest first and filters by action and target', async () => {
    const { user } = await signUp(t.app);
    for (const amount of ['1', '2', '3']) {
      await admin.post(`/api/admin/users/${user.id}/balance`, { amount, reason: `r${amount}` });
    }
    const query = `targetType=user&targetId=${user.id}&action=balance.adjust`;
    const first = (await admin.get(`/api/admin/audit?${query}&limit=2`)).json<AuditPage>();
    expect(first.items.map((item) => item.reason)).toEqual(['r3', 'r2']);
    expect(first.items[0]).toMatchObject({
      id: expect.any(Number),
      createdAt: expect.any(String),
      actor: { id: adminId, username: adminName },
      action: 'balance.adjust',
      target: { type: 'user', id: String(user.id) },
      details: { amountCents: '300', balanceAfterCents: '600' },
    });
    expect(first.nextBefore).toEqual(expect.any(Number));
    const second = (
      await admin.get(`/api/admin/audit?${query}&limit=2&before=${first.nextBefore}`)
    ).json<AuditPage>();
    expect(second.items.map((item) => item.reason)).toEqual(['r1']);
    expect(second.nextBefore).toBeNull();
    expect((await admin.get('/api/admin/audit?action=nonsense')).statusCode).toBe(400);
  });

  it('cannot be changed or removed, even by SQL', async () => {
    const { user } = await signUp(t.app);
    await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '1' });
    await expect(
      t.database.db.execute(sql`update audit_log set reason = 'edited'`),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    expect(await auditEntriesFor(t.database, { type: 'user', id: user.id })).toHaveLength(1);
  });
});

describe('GET /api/admin/ledger-health', () => {
  it('reports the invariant check', async () => {
    const response = await admin.get('/api/admin/ledger-health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, problems: [], checkedAt: expect.any(String) });
  });
});
