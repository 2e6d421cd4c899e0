import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { challenges } from '#server/db/schema/challenges.ts';
import { payouts } from '#server/db/schema/payouts.ts';
import { users } from '#server/db/schema/users.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)("a player's own closing racing their stakes and payouts", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  it('either closes with nothing left in play, or is refused with the account whole', async () => {
    const outcomes = new Set<number>();
    for (let round = 0; round < 6; round += 1) {
      const { agent, user, password } = await signUp(t.app);
      await fund(t.database, user.id, 10_000n);
      const close = () => agent.post('/api/me/close', { password });
      const others = () => [
        ...Array.from({ length: 3 }, () =>
          agent.post('/api/challenges', {
            game: 'Chess',
            amount: 10,
            gamerTag: 'Rook',
            phoneNumber: '5550109000',
            console: 'PC',
          }),
        ),
        ...Array.from({ length: 3 }, () =>
          agent.post('/api/payouts', {
            amount: 10,
            paymentMethod: 'crypto',
            paymentDetails: 'BTC bc1qrace',
            phoneNumber: '5550109000',
          }),
        ),
      ];
      // The close checks the password (argon2, tens of milliseconds) before it takes the lock:
      // the stakes and payouts are sent from before it starts to while it holds the row.
      const closing = close();
      await new Promise((resolve) => setTimeout(resolve, round * 25));
      const racing = others();
      const [closed] = await Promise.all([closing, ...racing]);
      outcomes.add(closed!.statusCode);

      const inPlay = await t.database.db
        .select({ id: challenges.id })
        .from(challenges)
        .where(
          and(eq(challenges.creatorId, user.id), inArray(challenges.status, ['open', 'accepted'])),
        );
      const pending = await t.database.db
        .select({ id: payouts.id })
        .from(payouts)
        .where(and(eq(payouts.userId, user.id), eq(payouts.status, 'pending')));
      const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
      if (closed!.statusCode === 200) {
        expect(row?.deletedAt).not.toBeNull();
        expect(await balanceOf(t.database, user.id)).toBe(0n);
        expect(inPlay).toEqual([]);
        expect(pending).toEqual([]);
      } else {
        expect(closed!.statusCode, closed!.body).toBe(409);
        expect(closed!.json().code).toBe('MONEY_HELD');
        expect(row?.deletedAt).toBeNull();
        expect(inPlay.length + pending.length).toBeGreaterThan(0);
      }
    }
    expect([...outcomes].every((status) => status === 200 || status === 409)).toBe(true);
  });
});
