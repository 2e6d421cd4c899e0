import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '#server/context.ts';
import { queryRows } from '#server/db/client.ts';
import { getUserBalances } from '#server/features/ledger/balances.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { runFairPlayPass } from './review.ts';

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)('fair play races on PostgreSQL (docs/fair-play.md)', () => {
  let t: TestApp;
  const ROUNDS = 8;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A worker whose clock is past every review and match limit: another instance, later. */
  const lateWorker = () =>
    createAppContext({
      env: t.env,
      database: t.database,
      bus: t.bus,
      clock: () => new Date(Date.now() + 49 * 3_600_000),
    });

  async function reportedMatch(creatorCents = 1000n) {
    const creator = await signUp(t.app);
    const acceptor = await signUp(t.app);
    await fund(t.database, creator.user.id, creatorCents);
    await fund(t.database, acceptor.user.id, 1000n);
    const { id } = (
      await creator.agent.post('/api/challenges', {
        game: 'Rocket League',
        amount: 10,
        gamerTag: 'Racer',
        phoneNumber: '5550104000',
        console: 'PC',
      })
    ).json<{ id: number }>();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const reported = await creator.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 3,
      acceptorScore: 1,
      screenshot: 'https://example.com/s.png',
    });
    expect(reported.statusCode).toBe(200);
    return { id, creator, acceptor };
  }

  async function releases(id: number): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ledger_transfers where idempotency_key = ${`release:${id}`}`,
    );
    return row?.n ?? 0;
  }

  it('confirm racing the worker’s release: the credit moves once', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { id, creator, acceptor } = await reportedMatch();
      const [confirm] = await Promise.all([
        acceptor.agent.post(`/api/challenges/${id}/confirm`),
        runFairPlayPass(lateWorker()),
      ]);
      expect(confirm.statusCode).toBe(200);
      expect(await releases(id)).toBe(1);
      expect(await getUserBalances(t.database.db, creator.user.id)).toEqual({
        availableCents: 1900n,
        underReviewCents: 0n,
        debtCents: 0n,
      });
    }
  });

  it('dispute racing the release: exactly one wins, and money moves at most once', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { id, creator, acceptor } = await reportedMatch();
      const [dispute] = await Promise.all([
        acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'wrong score' }),
        runFairPlayPass(lateWorker()),
      ]);
      const money = await getUserBalances(t.database.db, creator.user.id);
      if (dispute.statusCode === 200) {
        expect(await releases(id)).toBe(0);
        expect(money).toEqual({ availableCents: 0n, underReviewCents: 1900n, debtCents: 0n });
      } else {
        expect(dispute.statusCode).toBe(409);
        expect(await releases(id)).toBe(1);
        expect(money).toEqual({ availableCents: 1900n, underReviewCents: 0n, debtCents: 0n });
      }
    }
  });

  it('an admin’s decision racing a late confirm: the decision stands, paid once', async () => {
    const { agent: admin } = await signInAdmin(t);
    for (let round = 0; round < ROUNDS; round += 1) {
      const { id, creator, acceptor } = await reportedMatch();
      await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'wrong score' });
      const [decision, confirm] = await Promise.all([
        admin.post(`/api/admin/disputes/${id}/resolve`, { outcome: 'acceptor', note: 'Replay' }),
        acceptor.agent.post(`/api/challenges/${id}/confirm`),
      ]);
      expect(decision.statusCode).toBe(200);
      // Before the decision the result is disputed; after it, there is nothing left to release.
      expect([200, 409]).toContain(confirm.statusCode);
      expect(await getUserBalances(t.database.db, acceptor.user.id)).toEqual({
        availableCents: 1900n,
        underReviewCents: 0n,
        debtCents: 0n,
      });
      expect(await getUserBalances(t.database.db, creator.user.id)).toEqual({
        availableCents: 0n,
        underReviewCents: 0n,
        debtCents: 0n,
      });
    }
  });

  it('payout requests racing a dispute never reach the held credit', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const { id, creator, acceptor } = await reportedMatch(2000n);
      const payout = (amount: number) =>
        creator.agent.post('/api/payouts', {
          amount,
          paymentMethod: 'crypto',
          paymentDetails: 'BTC bc1qracingaddress00000000000000000000',
          phoneNumber: '+1 555 010 3000',
        });
      const [whole, available, dispute] = await Promise.all([
        payout(29),
        payout(10),
        acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'wrong score' }),
      ]);
      expect(whole.statusCode).toBe(400);
      expect(available.statusCode).toBe(201);
      expect(dispute.statusCode).toBe(200);
      expect(await getUserBalances(t.database.db, creator.user.id)).toEqual({
        availableCents: 0n,
        underReviewCents: 1900n,
        debtCents: 0n,
      });
    }
  });

  it('results released by two instances’ workers at once: each once', async () => {
    const matches = await Promise.all(Array.from({ length: 12 }, () => reportedMatch()));
    await Promise.all([runFairPlayPass(lateWorker()), runFairPlayPass(lateWorker())]);
    for (const { id, creator } of matches) {
      expect(await releases(id)).toBe(1);
      expect((await getUserBalances(t.database.db, creator.user.id)).availableCents).toBe(1900n);
    }
  });
});
