import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import type { Executor } from '#server/db/client.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { fund } from '#tests/helpers/money.ts';
import { withTwoInstances } from '#tests/helpers/two-instances.ts';
import { Agent, createTestApp, signUp, type TestApp } from '#tests/helpers/test-app.ts';
import { BALANCE_CACHE_TTL_MS, BalanceCache } from './balance-cache.ts';

/** A database that answers each balance read with the next of `balances` (cents available). */
function countingDatabase(...balances: bigint[]) {
  let reads = 0;
  const db = {
    execute: async () => {
      const cents = balances[Math.min(reads, balances.length - 1)] ?? 0n;
      reads += 1;
      return {
        rows: [
          { user_id: 1, available_cents: String(cents), under_review_cents: '0', debt_cents: '0' },
        ],
      };
    },
  } as unknown as Executor;
  return { db, reads: () => reads };
}

const balanceEvent = (userId: number) =>
  ({
    type: 'balance',
    userId,
    balanceCents: '1',
    availableCents: '1',
    underReviewCents: '0',
  }) as const;

describe('BalanceCache', () => {
  it('reads a balance once for its time to live, then again', async () => {
    const cache = new BalanceCache(1000);
    const { db, reads } = countingDatabase(500n, 700n);
    expect((await cache.balancesOf(db, 1, 0)).availableCents).toBe(500n);
    expect((await cache.balancesOf(db, 1, 999)).availableCents).toBe(500n);
    expect(reads()).toBe(1);
    expect((await cache.balancesOf(db, 1, 1000)).availableCents).toBe(700n);
    expect(reads()).toBe(2);
  });

  it('forgets a player on a balance event, and everyone when events were missed', async () => {
    const cache = new BalanceCache();
    const { db, reads } = countingDatabase(500n);
    await cache.balancesOf(db, 1, 0);
    await cache.balancesOf(db, 2, 0);
    cache.handle(balanceEvent(1));
    expect(cache.size).toBe(1);
    cache.handle({ type: 'user-changed', userId: 2 });
    expect(cache.size).toBe(1);
    cache.handle({ type: 'events-missed' });
    expect(cache.size).toBe(0);
    expect(reads()).toBe(2);
  });

  it('does not keep a read that a transfer overtook', async () => {
    const cache = new BalanceCache();
    let answer: (value: { rows: unknown[] }) => void = () => {};
    const slow = {
      execute: () => new Promise((resolve) => (answer = resolve)),
    } as unknown as Executor;
    const reading = cache.balancesOf(slow, 1, 0);
    // The transfer commits and its event arrives while the read is on its way back.
    cache.handle(balanceEvent(1));
    answer({
      rows: [{ user_id: 1, available_cents: '500', under_review_cents: '0', debt_cents: '0' }],
    });
    expect((await reading).availableCents).toBe(500n);
    expect(cache.size).toBe(0);
    // A read that nothing overtook is kept.
    const { db } = countingDatabase(800n);
    await cache.balancesOf(db, 1, 0);
    expect(cache.size).toBe(1);
  });

  it('drops the oldest player when full', async () => {
    const cache = new BalanceCache(60_000, 2);
    const { db, reads } = countingDatabase(100n);
    for (const userId of [1, 2, 3]) await cache.balancesOf(db, userId, 0);
    await cache.balancesOf(db, 3, 0);
    expect(reads()).toBe(3);
    await cache.balancesOf(db, 1, 0);
    expect(reads()).toBe(4);
  });
});

async function cardDeposit(agent: Agent, amount: number): Promise<void> {
  const intent = (await agent.post('/api/create-payment-intent', { amount })).json<{
    clientSecret: string;
    paymentIntentId: string;
  }>();
  await agent.post('/api/sandbox/card/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: SANDBOX_TEST_CARDS.success,
  });
  const confirmed = await agent.post('/api/confirm-payment', {
    paymentIntentId: intent.paymentIntentId,
  });
  expect(confirmed.statusCode).toBe(200);
}

const balanceShown = async (agent: Agent) => (await agent.get('/api/user')).json().balance;

describe('GET /api/user answered from the balance cache', () => {
  let t: TestApp;
  let now = new Date('2031-03-01T12:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows a deposit at once: the transfer forgets the copy before it answers', async () => {
    const { agent } = await signUp(t.app);
    expect(await balanceShown(agent)).toBe(0);
    await cardDeposit(agent, 25);
    expect(await balanceShown(agent)).toBe(25);
  });

  it('trusts its copy for a few seconds when money moved with no event, and no longer', async () => {
    const { agent, user } = await signUp(t.app);
    expect(await balanceShown(agent)).toBe(0);
    // Posted through a ledger on another bus: this instance hears nothing (a lost event).
    await fund(t.database, user.id, 1_000n);
    expect(await balanceShown(agent)).toBe(0);
    now = new Date(now.getTime() + BALANCE_CACHE_TTL_MS);
    expect(await balanceShown(agent)).toBe(10);
  });
});

describe.runIf(onPostgres)('balances across instances on one PostgreSQL', () => {
  it('a deposit on instance A shows on instance B', async () => {
    await withTwoInstances(async (a, b) => {
      const { agent } = await signUp(a.app);
      const onB = new Agent(b.app);
      onB.useCookie(agent.sessionCookie);
      expect(await balanceShown(onB)).toBe(0);
      await cardDeposit(agent, 40);
      await expect.poll(() => balanceShown(onB)).toBe(40);
    });
  });
});
