import { and, eq, or } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { challenges } from '#server/db/schema/challenges.ts';
import { payouts } from '#server/db/schema/payouts.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from './testing/admin-agent.ts';

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)('account deletion racing the player on PostgreSQL', () => {
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

  it('leaves no open challenge, no pending payout and no money behind, whatever wins', async () => {
    for (let round = 0; round < 5; round += 1) {
      const victim = await signUp(t.app);
      await fund(t.database, victim.user.id, 10_000n);
      const requests = [
        ...Array.from({ length: 4 }, () =>
          victim.agent.post('/api/challenges', {
            game: 'Chess',
            amount: 10,
            gamerTag: 'Rook',
            phoneNumber: '5550109000',
            console: 'PC',
          }),
        ),
        ...Array.from({ length: 4 }, () =>
          victim.agent.post('/api/payouts', {
            amount: 10,
            paymentMethod: 'crypto',
            paymentDetails: 'BTC bc1qrace',
            phoneNumber: '5550109000',
          }),
        ),
      ];
      const deletion = admin.request({
        method: 'DELETE',
        url: `/api/admin/users/${victim.user.id}`,
      });
      const [deleted] = await Promise.all([deletion, ...requests]);
      expect(deleted.statusCode).toBe(200);

      expect(await balanceOf(t.database, victim.user.id)).toBe(0n);
      const open = await t.database.db
        .select({ id: challenges.id })
        .from(challenges)
        .where(
          and(
            eq(challenges.creatorId, victim.user.id),
            or(eq(challenges.status, 'open'), eq(challenges.status, 'accepted')),
          ),
        );
      expect(open).toEqual([]);
      const pending = await t.database.db
        .select({ id: payouts.id })
        .from(payouts)
        .where(and(eq(payouts.userId, victim.user.id), eq(payouts.status, 'pending')));
      expect(pending).toEqual([]);
    }
  });
});
