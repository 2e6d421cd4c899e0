import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)('payout races on PostgreSQL', () => {
  let t: TestApp;
  let admin: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent: admin } = await signInAdmin(t));
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const request = (amount: number) => ({
    amount,
    paymentMethod: 'crypto',
    paymentDetails: 'USDT TXexampleaddress',
    phoneNumber: '5550104000',
  });

  it('ten simultaneous $30 requests on a $100 balance hold exactly three', async () => {
    const player = await signUp(t.app);
    await fund(t.database, player.user.id, 10_000n);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => player.agent.post('/api/payouts', request(30))),
    );
    expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const refused = responses.filter((r) => r.statusCode === 400);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.json().message).toBe('Insufficient balance');
    expect(await balanceOf(t.database, player.user.id)).toBe(1_000n);
    const payouts = (await player.agent.get('/api/payouts')).json<Array<{ amount: number }>>();
    expect(payouts.map((p) => p.amount)).toEqual([30, 30, 30]);
  });

  it('complete racing fail on one payout: exactly one decision, money moves once', async () => {
    for (let round = 0; round < 5; round += 1) {
      const player = await signUp(t.app);
      await fund(t.database, player.user.id, 5_000n);
      const { payout } = (await player.agent.post('/api/payouts', request(20))).json();
      const [complete, fail] = await Promise.all([
        admin.post(`/api/admin/payouts/${payout.id}/complete`),
        admin.post(`/api/admin/payouts/${payout.id}/fail`, { reason: 'race' }),
      ]);
      expect([complete.statusCode, fail.statusCode].sort()).toEqual([200, 409]);
      const expected = complete.statusCode === 200 ? 3_000n : 5_000n;
      expect(await balanceOf(t.database, player.user.id)).toBe(expected);
    }
  });
});
