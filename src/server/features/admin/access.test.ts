import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '#tests/helpers/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Every admin endpoint, with a body that would pass validation. */
const ADMIN_ENDPOINTS = [
  ['GET', '/api/admin/users', undefined],
  ['POST', '/api/admin/users/1/balance', { amount: '5' }],
  ['DELETE', '/api/admin/users/1', undefined],
  ['GET', '/api/admin/challenges', undefined],
  ['GET', '/api/admin/disputes', undefined],
  ['POST', '/api/admin/disputes/1/resolve', { outcome: 'refund', note: 'x' }],
  ['GET', '/api/admin/payouts', undefined],
  ['POST', '/api/admin/payouts/1/complete', undefined],
  ['POST', '/api/admin/payouts/1/fail', { reason: 'x' }],
  ['GET', '/api/admin/verifications', undefined],
  ['POST', '/api/admin/verifications/1/approve', undefined],
  ['POST', '/api/admin/verifications/1/reject', { note: 'x' }],
  ['GET', '/api/admin/audit', undefined],
  ['GET', '/api/admin/ledger-health', undefined],
] as const;

describe('admin endpoints', () => {
  it('are all real routes (a typo here would test a 404)', () => {
    for (const [method, url] of ADMIN_ENDPOINTS) {
      expect(t.app.hasRoute({ method, url: url.replace(/\/1(?=\/|$)/, '/:id') })).toBe(true);
    }
  });

  it.each(ADMIN_ENDPOINTS)('%s %s: 401 anonymous, 403 for a player', async (method, url, body) => {
    const payload = body ? { payload: body } : {};
    const anonymous = await t.app.inject({ method, url, ...payload });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');
    const { agent } = await signUp(t.app);
    const player = await agent.request({ method, url, ...payload });
    expect(player.statusCode).toBe(403);
    expect(player.json()).toEqual({ code: 'FORBIDDEN', message: 'Admin privileges required' });
  });
});
