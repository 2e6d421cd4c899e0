import { createHash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sqlArray, type DatabaseHandle } from '#server/db/client.ts';
import { ledgerAccounts, ledgerPostings, ledgerTransfers } from '#server/db/schema/ledger.ts';
import { users } from '#server/db/schema/users.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { AppError } from '#server/errors.ts';
import { createLocalBus, type AppEvent } from '#server/lib/event-bus.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { expectLedgerHealthy } from '#tests/helpers/test-app.ts';
import {
  challengeEscrow,
  EXTERNAL_CARD,
  HOUSE_ADJUSTMENTS,
  HOUSE_FEES,
  userWallet,
} from './accounts.ts';
import { getUserBalanceCents } from './balances.ts';
import { checkLedgerInvariants } from './invariants.ts';
import {
  createLedger,
  ledgerPostCall,
  LedgerRuleError,
  POSTED_COLUMNS,
  type TransferInput,
} from './ledger.ts';

let database: DatabaseHandle;
const bus = createLocalBus();
const ledger = createLedger(bus);
let keySeq = 0;

async function newUser(): Promise<number> {
  keySeq += 1;
  const [row] = await database.db
    .insert(users)
    .values({ username: `ledger_${keySeq}_${Date.now() % 100000}`, passwordHash: 'x' })
    .returning({ id: users.id });
  return row!.id;
}

function post(input: TransferInput) {
  return inTransaction(database.db, (uow) => ledger.post(uow, input));
}

function deposit(userId: number, cents: bigint, key = `test-deposit:${++keySeq}`) {
  return post({
    idempotencyKey: key,
    kind: 'deposit',
    entries: [
      { account: EXTERNAL_CARD, direction: 'debit', amountCents: cents },
      { account: userWallet(userId), direction: 'credit', amountCents: cents },
    ],
  });
}

function move(from: number, to: number, cents: bigint, key = `test-move:${++keySeq}`) {
  return post({
    idempotencyKey: key,
    kind: 'adjustment',
    entries: [
      { account: userWallet(from), direction: 'debit', amountCents: cents },
      { account: userWallet(to), direction: 'credit', amountCents: cents },
    ],
  });
}

async function postingCount(): Promise<number> {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(ledgerPostings);
  return row!.n;
}

beforeAll(async () => {
  database = await openTestDatabase(24);
});
afterEach(async () => {
  await expectLedgerHealthy(database);
});
afterAll(async () => {
  await database.close();
});

describe('posting transfers', () => {
  it('moves money, records balances after each posting and caches the balance', async () => {
    const alice = await newUser();
    const result = await deposit(alice, 2500n);
    expect(result.replayed).toBe(false);
    expect(result.balancesAfter.get(userWallet(alice))).toBe(2500n);
    expect(await getUserBalanceCents(database.db, alice)).toBe(2500n);
    const rows = await database.db
      .select()
      .from(ledgerPostings)
      .where(eq(ledgerPostings.transferId, result.transferId));
    expect(rows.map((r) => r.amountCents).sort()).toEqual([-2500n, 2500n]);
  });

  it('publishes the new balance of each touched wallet after commit', async () => {
    const alice = await newUser();
    const events: AppEvent[] = [];
    const unsubscribe = bus.subscribe((event) => events.push(event));
    await deposit(alice, 700n);
    unsubscribe();
    expect(events).toEqual([
      {
        type: 'balance',
        userId: alice,
        balanceCents: '700',
        availableCents: '700',
        underReviewCents: '0',
      },
    ]);
  });

  it.each<[string, (a: number, b: number) => TransferInput]>([
    [
      'unbalanced postings',
      (a, b) => ({
        idempotencyKey: `bad:${++keySeq}`,
        kind: 'adjustment',
        entries: [
          { account: userWallet(a), direction: 'debit', amountCents: 100n },
          { account: userWallet(b), direction: 'credit', amountCents: 99n },
        ],
      }),
    ],
    [
      'a zero amount',
      (a, b) => ({
        idempotencyKey: `bad:${++keySeq}`,
        kind: 'adjustment',
        entries: [
          { account: userWallet(a), direction: 'debit', amountCents: 0n },
          { account: userWallet(b), direction: 'credit', amountCents: 0n },
        ],
      }),
    ],
    [
      'a negative amount',
      (a, b) => ({
        idempotencyKey: `bad:${++keySeq}`,
        kind: 'adjustment',
        entries: [
          { account: userWallet(a), direction: 'debit', amountCents: -100n },
          { account: userWallet(b), direction: 'credit', amountCents: -100n },
        ],
      }),
    ],
    [
      'the same source and destination',
      (a) => ({
        idempotencyKey: `bad:${++keySeq}`,
        kind: 'adjustment',
        entries: [
          { account: userWallet(a), direction: 'debit', amountCents: 100n },
          { account: userWallet(a), direction: 'credit', amountCents: 100n },
        ],
      }),
    ],
    [
      'an unknown account',
      (a) => ({
        idempotencyKey: `bad:${++keySeq}`,
        kind: 'adjustment',
        entries: [
          { account: userWallet(a), direction: 'debit', amountCents: 100n },
          { account: 'bank:secret', direction: 'credit', amountCents: 100n },
        ],
      }),
    ],
    [
      'a single entry',
      (a) => ({
        idempotencyKey: `bad:${++keySeq}`,
        kind: 'adjustment',
        entries: [{ account: userWallet(a), direction: 'credit', amountCents: 100n }],
      }),
    ],
  ])('refuses %s and moves nothing', async (_name, build) => {
    const a = await newUser();
    const b = await newUser();
    await deposit(a, 1000n);
    const before = await postingCount();
    await expect(post(build(a, b))).rejects.toBeInstanceOf(LedgerRuleError);
    expect(await postingCount()).toBe(before);
    expect(await getUserBalanceCents(database.db, a)).toBe(1000n);
  });

  it('refuses an overdraft with INSUFFICIENT_BALANCE and rolls the whole transfer back', async () => {
    const a = await newUser();
    const b = await newUser();
    await deposit(a, 1000n);
    const before = await postingCount();
    const attempt = post({
      idempotencyKey: `overdraft:${++keySeq}`,
      kind: 'settlement',
      entries: [
        // The first entry alone would be fine; the second overdraws b, so neither may happen.
        { account: userWallet(a), direction: 'debit', amountCents: 500n },
        { account: userWallet(b), direction: 'debit', amountCents: 1n },
        { account: HOUSE_FEES, direction: 'credit', amountCents: 501n },
      ],
    });
    await expect(attempt).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
    });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    expect(await postingCount()).toBe(before);
    expect(await getUserBalanceCents(database.db, a)).toBe(1000n);
    const [transfer] = await database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, `overdraft:${keySeq}`));
    expect(transfer).toBeUndefined();
  });

  it('rolls back the caller’s other writes with a refused transfer', async () => {
    const a = await newUser();
    const attempt = inTransaction(database.db, async (uow) => {
      await uow.tx
        .update(users)
        .set({ avatarUrl: 'https://example.com/a.png' })
        .where(eq(users.id, a));
      await ledger.post(uow, {
        idempotencyKey: `rollback:${++keySeq}`,
        kind: 'stake',
        entries: [
          { account: userWallet(a), direction: 'debit', amountCents: 1n },
          { account: HOUSE_FEES, direction: 'credit', amountCents: 1n },
        ],
      });
    });
    await expect(attempt).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    const [row] = await database.db.select().from(users).where(eq(users.id, a));
    expect(row?.avatarUrl).toBeNull();
  });

  it('refuses to take an escrow below zero as a rule error, not as the player’s shortfall', async () => {
    const a = await newUser();
    await deposit(a, 1000n);
    const before = await postingCount();
    const escrow = challengeEscrow(900_000 + keySeq);
    const attempt = post({
      idempotencyKey: `escrow-overdraft:${++keySeq}`,
      kind: 'refund',
      entries: [
        { account: escrow, direction: 'debit', amountCents: 500n },
        { account: userWallet(a), direction: 'credit', amountCents: 500n },
      ],
    });
    await expect(attempt).rejects.toBeInstanceOf(LedgerRuleError);
    expect(await postingCount()).toBe(before);
    expect(await getUserBalanceCents(database.db, a)).toBe(1000n);
    const accounts = await database.db
      .select()
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.key, escrow));
    expect(accounts).toEqual([]);
  });
});

describe('a transfer posted by a statement of its own (postWith)', () => {
  const fee = (userId: number, key: string, cents = 100n): TransferInput => ({
    idempotencyKey: key,
    kind: 'adjustment',
    entries: [
      { account: userWallet(userId), direction: 'debit', amountCents: cents },
      { account: HOUSE_FEES, direction: 'credit', amountCents: cents },
    ],
  });
  /** The statement: the posting, with a column of the caller's own beside it. */
  const posting = (input: TransferInput) =>
    sql`select 'mine' as marker, ${POSTED_COLUMNS} from ${ledgerPostCall(input)}`;
  const withMarker = (statement: SQL) =>
    ledger.postWith<{ marker: string }>(database.db, 'adjustment', statement);

  it('moves the money, answers the caller’s columns and publishes the new balance', async () => {
    const a = await newUser();
    await deposit(a, 1000n);
    const events: AppEvent[] = [];
    const unsubscribe = bus.subscribe((event) => events.push(event));
    const { outcome, transfer } = await withMarker(posting(fee(a, `with:${++keySeq}`)));
    unsubscribe();
    expect(outcome?.marker).toBe('mine');
    expect(transfer).toMatchObject({ replayed: false });
    expect(transfer?.balancesAfter.get(userWallet(a))).toBe(900n);
    expect(await getUserBalanceCents(database.db, a)).toBe(900n);
    expect(events).toContainEqual({
      type: 'balance',
      userId: a,
      balanceCents: '900',
      availableCents: '900',
      underReviewCents: '0',
    });
  });

  it('answers no transfer and writes nothing when the statement does not call the ledger', async () => {
    const a = await newUser();
    await deposit(a, 1000n);
    const before = await postingCount();
    const key = `with-gated:${++keySeq}`;
    // The gate lets no row through, so the lateral call never runs.
    const gated = sql`select 'mine' as marker, ${POSTED_COLUMNS}
      from (select 1 where false) as gate cross join lateral ${ledgerPostCall(fee(a, key))}`;
    const answer = await withMarker(gated);
    expect(answer.outcome).toBeUndefined();
    expect(answer.transfer).toBeNull();
    await expect(answer.published).resolves.toBeUndefined();
    expect(await postingCount()).toBe(before);
    expect(await getUserBalanceCents(database.db, a)).toBe(1000n);
    const transfers = await database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, key));
    expect(transfers).toEqual([]);
  });

  it('refuses an overdraft with INSUFFICIENT_BALANCE and writes nothing', async () => {
    const a = await newUser();
    await deposit(a, 50n);
    const before = await postingCount();
    await expect(withMarker(posting(fee(a, `with-short:${++keySeq}`)))).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
    });
    expect(await postingCount()).toBe(before);
    expect(await getUserBalanceCents(database.db, a)).toBe(50n);
  });

  it('moves the money once when its key was posted before', async () => {
    const a = await newUser();
    await deposit(a, 1000n);
    const key = `with-replay:${++keySeq}`;
    const first = await post(fee(a, key));
    const { transfer } = await withMarker(posting(fee(a, key)));
    expect(transfer).toMatchObject({ replayed: true, transferId: first.transferId });
    expect(await getUserBalanceCents(database.db, a)).toBe(900n);
  });
});

describe('the ledger_post function on its own', () => {
  /** ledger_post called with raw entries, past the application's own validation. */
  const raw = (key: string, accounts: string[], amounts: bigint[]) =>
    withRaw(
      sql`select ${POSTED_COLUMNS} from ledger_post(${key}::text, 'adjustment', null, null, null,
        null, null, ${sqlArray(accounts, 'text')}, ${sqlArray(
          accounts.map(() => 'house'),
          'text',
        )}, ${sqlArray(
          accounts.map(() => true),
          'boolean',
        )}, ${sqlArray(
          accounts.map(() => null),
          'integer',
        )}, ${sqlArray(
          amounts.map((amount) => amount.toString()),
          'bigint',
        )})`,
    );
  const withRaw = (statement: SQL) => ledger.postWith(database.db, 'adjustment', statement);

  it('refuses an unbalanced transfer, a repeated account, a zero amount and a single entry', async () => {
    const before = await postingCount();
    const refusals: Array<[accounts: string[], amounts: bigint[]]> = [
      [
        [HOUSE_ADJUSTMENTS, EXTERNAL_CARD],
        [-100n, 99n],
      ],
      [
        [HOUSE_ADJUSTMENTS, HOUSE_ADJUSTMENTS],
        [-100n, 100n],
      ],
      [
        [HOUSE_ADJUSTMENTS, EXTERNAL_CARD],
        [0n, 0n],
      ],
      [[HOUSE_ADJUSTMENTS], [0n]],
    ];
    for (const [accounts, amounts] of refusals) {
      await expect(raw(`raw:${++keySeq}`, accounts, amounts)).rejects.toBeInstanceOf(
        LedgerRuleError,
      );
    }
    expect(await postingCount()).toBe(before);
  });

  it('hashes the payload as the application always has, so keys recorded before still replay', async () => {
    const a = await newUser();
    const key = `hash:${++keySeq}`;
    await post({
      idempotencyKey: key,
      kind: 'deposit',
      reference: { type: 'payment', id: 42 },
      entries: [
        { account: userWallet(a), direction: 'credit', amountCents: 1234n },
        { account: EXTERNAL_CARD, direction: 'debit', amountCents: 1234n },
      ],
    });
    // The canonical form the TypeScript ledger hashed before the database did: entries sorted by
    // account, each [account, direction, cents as text].
    const canonical = JSON.stringify({
      kind: 'deposit',
      reference: ['payment', '42'],
      entries: [
        [EXTERNAL_CARD, 'debit', '1234'],
        [userWallet(a), 'credit', '1234'],
      ],
    });
    const [transfer] = await database.db
      .select()
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, key));
    expect(transfer?.payloadHash).toBe(createHash('sha256').update(canonical).digest('hex'));
  });
});

describe('idempotency', () => {
  it('moves money once for the same key posted twice', async () => {
    const a = await newUser();
    const first = await deposit(a, 1500n, `idem:${a}`);
    const second = await deposit(a, 1500n, `idem:${a}`);
    expect(second).toMatchObject({ replayed: true, transferId: first.transferId });
    expect(await getUserBalanceCents(database.db, a)).toBe(1500n);
  });

  it('treats the same key with a different payload as a conflict', async () => {
    const a = await newUser();
    await deposit(a, 1500n, `idem-conflict:${a}`);
    await expect(deposit(a, 1600n, `idem-conflict:${a}`)).rejects.toMatchObject({
      code: 'IDEMPOTENCY_CONFLICT',
    });
    expect(await getUserBalanceCents(database.db, a)).toBe(1500n);
  });

  it('moves money once when the same key races', async () => {
    const a = await newUser();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => deposit(a, 300n, `idem-race:${a}`)),
    );
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await getUserBalanceCents(database.db, a)).toBe(300n);
  });
});

describe('append-only', () => {
  it('the database refuses to update or delete postings and transfers', async () => {
    const a = await newUser();
    const { transferId } = await deposit(a, 100n);
    await expect(
      database.db
        .update(ledgerPostings)
        .set({ amountCents: 1n })
        .where(eq(ledgerPostings.transferId, transferId)),
    ).rejects.toThrow();
    await expect(
      database.db.delete(ledgerTransfers).where(eq(ledgerTransfers.id, transferId)),
    ).rejects.toThrow();
    await expect(database.db.execute(sql`truncate ledger_postings cascade`)).rejects.toThrow();
  });

  it('the database refuses a negative wallet even if code tried to write one', async () => {
    const a = await newUser();
    await deposit(a, 100n);
    await expect(
      database.db
        .update(ledgerAccounts)
        .set({ balanceCents: -1n })
        .where(eq(ledgerAccounts.key, userWallet(a))),
    ).rejects.toThrow();
  });
});

describe('invariant check', () => {
  it('reports a cached balance that drifted from its postings', async () => {
    const a = await newUser();
    await deposit(a, 100n);
    await database.db
      .update(ledgerAccounts)
      .set({ balanceCents: 150n })
      .where(eq(ledgerAccounts.key, userWallet(a)));
    const report = await checkLedgerInvariants(database.db);
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toContain(
      `${userWallet(a)}: cached balance 150 ≠ sum of postings 100`,
    );
    await database.db
      .update(ledgerAccounts)
      .set({ balanceCents: 100n })
      .where(eq(ledgerAccounts.key, userWallet(a)));
  });
});

describe.runIf(onPostgres)('concurrency on PostgreSQL', () => {
  it('20 workers posting 500 random transfers keep every invariant; refused ones move nothing', async () => {
    const wallets = await Promise.all(Array.from({ length: 8 }, () => newUser()));
    for (const wallet of wallets) await deposit(wallet, 5_000n);
    const startTotal = 8n * 5_000n;

    let next = 0;
    let succeeded = 0;
    let refused = 0;
    const random = (n: number) => Math.floor(Math.random() * n);
    const worker = async () => {
      while (next < 500) {
        next += 1;
        const from = wallets[random(wallets.length)]!;
        let to = wallets[random(wallets.length)]!;
        if (to === from) to = wallets[(wallets.indexOf(from) + 1) % wallets.length]!;
        // Up to 30 dollars against 50-dollar wallets: overdraft attempts happen often.
        const amount = BigInt(1 + random(3_000));
        try {
          await move(from, to, amount);
          succeeded += 1;
        } catch (error) {
          if ((error as AppError).code !== 'INSUFFICIENT_BALANCE') throw error;
          refused += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));

    expect(succeeded + refused).toBe(500);
    expect(succeeded).toBeGreaterThan(0);
    const balances = await Promise.all(wallets.map((w) => getUserBalanceCents(database.db, w)));
    expect(balances.reduce((sum, b) => sum + b, 0n)).toBe(startTotal);
    expect(balances.every((b) => b >= 0n)).toBe(true);
    const [moves] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerTransfers)
      .where(sql`${ledgerTransfers.idempotencyKey} like 'test-move:%'`);
    expect(moves!.n).toBe(succeeded);
  }, 120_000);
});
