import { eq, inArray, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import type { TransferKind } from '#shared/contracts/wallet.ts';
import { createAppContext, type AppContext } from '#server/context.ts';
import type { Executor } from '#server/db/client.ts';
import { challenges } from '#server/db/schema/challenges.ts';
import { ledgerAccounts, ledgerTransfers } from '#server/db/schema/ledger.ts';
import { challengeEscrow, userWallet } from '#server/features/ledger/accounts.ts';
import { getUserBalances } from '#server/features/ledger/balances.ts';
import type { Ledger } from '#server/features/ledger/ledger.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { acceptChallenge, cancelChallenge, createChallenge } from './service.ts';
import { submitScores } from './results.ts';

/**
 * Accepting writes in one call guarded by the rules it relies on (open, another player's); a
 * result is checked on a read, then written in one call guarded by the status it relied on.
 * These tests change the challenge just before that call, where a concurrent request would, and
 * check that the guarded call changes nothing and the request is refused for the new state.
 */
describe('a challenge that changes between the read and the write', () => {
  let t: TestApp;
  let plain: AppContext;

  beforeAll(async () => {
    t = await createTestApp();
    plain = createAppContext({ env: t.env, database: t.database, bus: createLocalBus() });
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A context whose first money call runs `meanwhile` before it writes. */
  function interrupted(meanwhile: () => Promise<unknown>): {
    ctx: AppContext;
    writes: () => number;
  } {
    let writes = 0;
    const ctx = createAppContext({
      env: t.env,
      database: t.database,
      bus: createLocalBus(),
      wrapLedger: (ledger): Ledger => ({
        ...ledger,
        async postWith<T>(db: Executor, kind: TransferKind, statement: SQL) {
          writes += 1;
          if (writes === 1) await meanwhile();
          return ledger.postWith<T>(db, kind, statement);
        },
      }),
    });
    return { ctx, writes: () => writes };
  }

  async function player(cents: bigint): Promise<number> {
    const { user } = await signUp(t.app);
    await fund(t.database, user.id, cents);
    return user.id;
  }

  const challenge = {
    game: 'Chess',
    amount: 10,
    gamerTag: 'Board',
    phoneNumber: '5550104000',
    console: 'PC',
  };

  it('an accept that finds the challenge cancelled meanwhile is refused; no stake moves', async () => {
    const creator = await player(1000n);
    const acceptor = await player(1000n);
    const id = await createChallenge(plain, creator, challenge);
    const { ctx, writes } = interrupted(() => cancelChallenge(plain, id, creator));

    await expect(acceptChallenge(ctx, id, acceptor)).rejects.toMatchObject({
      code: 'CHALLENGE_NOT_OPEN',
      message: CHALLENGE_MESSAGES.notOpen,
    });
    // The call ran once and changed nothing; what it answered says why.
    expect(writes()).toBe(1);
    expect(await balanceOf(t.database, acceptor)).toBe(1000n);
    expect(await balanceOf(t.database, creator)).toBe(1000n);
    const [row] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
    expect(row).toMatchObject({ status: 'cancelled', acceptorId: null });
  });

  it('a different result that finds another recorded meanwhile disputes it; one settlement', async () => {
    const creator = await player(1000n);
    const acceptor = await player(1000n);
    const id = await createChallenge(plain, creator, challenge);
    await acceptChallenge(plain, id, acceptor);
    const result = { screenshot: 'https://example.com/result.png' };
    const { ctx, writes } = interrupted(() =>
      submitScores(plain, id, acceptor, { ...result, creatorScore: 0, acceptorScore: 2 }),
    );

    await expect(
      submitScores(ctx, id, creator, { ...result, creatorScore: 5, acceptorScore: 1 }),
    ).resolves.toMatchObject({ status: 'disputed', winnerId: creator });
    expect(writes()).toBe(1);
    // The acceptor's result was recorded first; its credit stays held for an admin.
    expect(await balanceOf(t.database, acceptor)).toBe(0n);
    expect(await balanceOf(t.database, creator)).toBe(0n);
    expect(await getUserBalances(t.database.db, acceptor)).toEqual({
      availableCents: 0n,
      underReviewCents: 1900n,
      debtCents: 0n,
    });
    const settlements = await t.database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, `settle:${id}`));
    expect(settlements).toHaveLength(1);
    const [row] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
    expect(row).toMatchObject({ status: 'disputed', winnerId: acceptor, submittedBy: acceptor });
  });

  it('the same result reported by both at once confirms it: the winner is paid once', async () => {
    const creator = await player(1000n);
    const acceptor = await player(1000n);
    const id = await createChallenge(plain, creator, challenge);
    await acceptChallenge(plain, id, acceptor);
    const scores = {
      screenshot: 'https://example.com/result.png',
      creatorScore: 0,
      acceptorScore: 2,
    };
    const { ctx } = interrupted(() => submitScores(plain, id, acceptor, scores));

    await expect(submitScores(ctx, id, creator, scores)).resolves.toMatchObject({
      status: 'completed',
      winnerId: acceptor,
      winnerBalanceCents: 1900n,
    });
    expect(await balanceOf(t.database, acceptor)).toBe(1900n);
    const [row] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
    expect(row).toMatchObject({ status: 'completed', releaseCause: 'agreed' });
    await expectLedgerHealthy(t.database);
  });

  it('the database’s challenge calls post to the accounts the application names', async () => {
    const creator = await player(1000n);
    const acceptor = await player(1000n);
    const id = await createChallenge(plain, creator, challenge);
    await acceptChallenge(plain, id, acceptor);
    const accounts = await t.database.db
      .select({ key: ledgerAccounts.key, balanceCents: ledgerAccounts.balanceCents })
      .from(ledgerAccounts)
      .where(
        inArray(ledgerAccounts.key, [
          challengeEscrow(id),
          userWallet(creator),
          userWallet(acceptor),
        ]),
      );
    expect(new Map(accounts.map((a) => [a.key, a.balanceCents]))).toEqual(
      new Map([
        [challengeEscrow(id), 2000n],
        [userWallet(creator), 0n],
        [userWallet(acceptor), 0n],
      ]),
    );
  });
});
