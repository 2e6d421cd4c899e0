import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS_MESSAGES, type Overview } from '#shared/contracts/insights.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { queryRows } from '#server/db/client.ts';
import { Agent, createTestApp, type TestApp } from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';

/**
 * The overview of docs/operator-tools.md (issue 22). A seeded random history of registrations,
 * challenges and ledger transfers is written straight into the tables, with times spread over the
 * weeks around the range; each figure is then computed here from the fixture arrays, by plain
 * loops, and must equal what the SQL aggregates answer, for the whole range and for every day of
 * it.
 */

const RANGE = { from: '2026-03-01', to: '2026-03-21' };
const START = Date.parse(`${RANGE.from}T00:00:00Z`);
const END = Date.parse('2026-03-22T00:00:00Z');
const DAY_MS = 86_400_000;

/** A small deterministic generator (mulberry32): the same fixtures on every run. */
function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = randomFrom(22);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
/** An instant from ten days before the range to ten days after it. */
const someTime = () =>
  new Date(START - 10 * DAY_MS + Math.floor(random() * (END - START + 20 * DAY_MS)));

interface FixtureUser {
  id: number;
  createdAt: Date;
}
interface FixtureChallenge {
  creatorId: number;
  acceptorId: number | null;
  amountCents: bigint;
  status: 'open' | 'accepted' | 'completed' | 'disputed' | 'cancelled';
  createdAt: Date;
  acceptedAt: Date | null;
  completedAt: Date | null;
  disputeReason: string | null;
}
interface FixtureTransfer {
  kind: 'deposit' | 'payout_complete' | 'settlement' | 'reversal' | 'adjustment';
  createdAt: Date;
  postings: Array<{ account: string; amountCents: bigint }>;
}

const users: FixtureUser[] = [];
const challenges: FixtureChallenge[] = [];
const transfers: FixtureTransfer[] = [];

function plan(firstUserId: number) {
  for (let index = 0; index < 40; index += 1) {
    users.push({ id: firstUserId + index, createdAt: someTime() });
  }
  const ids = users.map((user) => user.id);
  for (let index = 0; index < 150; index += 1) {
    const creatorId = pick(ids);
    const acceptorId = pick(ids.filter((id) => id !== creatorId));
    const status = pick([
      'open',
      'accepted',
      'completed',
      'completed',
      'disputed',
      'cancelled',
    ] as const);
    const createdAt = someTime();
    const accepted = status !== 'open' && (status !== 'cancelled' || random() < 0.5);
    const acceptedAt = accepted ? new Date(createdAt.getTime() + random() * 2 * DAY_MS) : null;
    const reported =
      acceptedAt !== null && (status === 'completed' || status === 'disputed' || random() < 0.3);
    const completedAt = reported
      ? new Date((acceptedAt as Date).getTime() + random() * DAY_MS)
      : null;
    // A dispute's reason stays when an admin decides it: completed and cancelled rows have some.
    const disputeReason =
      status === 'disputed' || (reported && random() < 0.2) ? 'Fake screenshot' : null;
    challenges.push({
      creatorId,
      acceptorId: accepted ? acceptorId : null,
      amountCents: BigInt(100 + Math.floor(random() * 10_000)),
      status,
      createdAt,
      acceptedAt,
      completedAt,
      disputeReason,
    });
  }
  for (let index = 0; index < 200; index += 1) {
    const amountCents = BigInt(1 + Math.floor(random() * 50_000));
    const wallet = `user:${pick(ids)}`;
    const kind = pick([
      'deposit',
      'payout_complete',
      'settlement',
      'reversal',
      'adjustment',
    ] as const);
    const entries: Record<FixtureTransfer['kind'], Array<[string, bigint]>> = {
      deposit: [
        [pick(['external:card', 'external:crypto']), -amountCents],
        [wallet, amountCents],
      ],
      payout_complete: [
        [`payout:hold:${index}`, -amountCents],
        ['external:crypto', amountCents],
      ],
      settlement: [
        [`escrow:challenge:${index}`, -amountCents * 2n],
        [wallet, amountCents * 2n - amountCents / 10n],
        ['house:fees', amountCents / 10n],
      ],
      reversal: [
        ['house:fees', -amountCents / 10n - 1n],
        [wallet, amountCents / 10n + 1n],
      ],
      adjustment: [
        ['house:adjustments', random() < 0.5 ? amountCents : -amountCents],
        [wallet, 0n],
      ],
    };
    const postings = entries[kind]
      .map(([account, cents]) => ({ account, amountCents: cents }))
      .filter((posting) => posting.amountCents !== 0n);
    const adjustment = postings[0];
    if (kind === 'adjustment' && adjustment) {
      postings.push({ account: wallet, amountCents: -adjustment.amountCents });
    }
    transfers.push({ kind, createdAt: someTime(), postings });
  }
}

const ACCOUNT_KIND = (key: string) =>
  key.split(':')[0] === 'payout' ? 'payout_hold' : (key.split(':')[0] as string);

async function seed(t: TestApp) {
  const db = t.database.db;
  for (const user of users) {
    await db.execute(sql`insert into users (id, username, password_hash, created_at)
      overriding system value
      values (${user.id}, ${`kpi_${user.id}`}, 'x', ${user.createdAt.toISOString()}::timestamptz)`);
  }
  for (const c of challenges) {
    await db.execute(sql`insert into challenges (creator_id, acceptor_id, amount_cents, game,
        gamer_tag, phone_number, console, status, created_at, accepted_at, completed_at,
        dispute_reason)
      values (${c.creatorId}, ${c.acceptorId}, ${c.amountCents.toString()}::bigint, 'Chess', 'tag',
        '5550100000', 'PC', ${c.status}, ${c.createdAt.toISOString()}::timestamptz,
        ${c.acceptedAt?.toISOString() ?? null}::timestamptz,
        ${c.completedAt?.toISOString() ?? null}::timestamptz, ${c.disputeReason})`);
  }
  for (const [index, transfer] of transfers.entries()) {
    const at = transfer.createdAt.toISOString();
    await db.execute(sql`insert into ledger_transfers (idempotency_key, kind, payload_hash, created_at)
      values (${`kpi:${index}`}, ${transfer.kind}, 'h', ${at}::timestamptz)`);
    for (const posting of transfer.postings) {
      const kind = ACCOUNT_KIND(posting.account);
      await db.execute(sql`insert into ledger_accounts (key, kind, user_id, allow_negative)
        values (${posting.account}, ${kind},
          ${kind === 'user' ? Number(posting.account.split(':')[1]) : null}, true)
        on conflict (key) do nothing`);
      await db.execute(sql`insert into ledger_postings (transfer_id, account_id, amount_cents,
          balance_after_cents, created_at)
        select t.id, a.id, ${posting.amountCents.toString()}::bigint, 0, ${at}::timestamptz
        from ledger_transfers t, ledger_accounts a
        where t.idempotency_key = ${`kpi:${index}`} and a.key = ${posting.account}`);
    }
  }
}

/** Every figure of `[from, to)`, computed from the fixture arrays alone. */
function expected(from: number, to: number) {
  const inside = (at: Date | null) => at !== null && at.getTime() >= from && at.getTime() < to;
  const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
  const postingsOf = (test: (transfer: FixtureTransfer, account: string) => boolean) =>
    sum(
      transfers
        .filter((transfer) => inside(transfer.createdAt))
        .flatMap((transfer) =>
          transfer.postings
            .filter((posting) => test(transfer, posting.account))
            .map((posting) => posting.amountCents),
        ),
    );
  const active = new Set<number>();
  for (const c of challenges) {
    if (inside(c.createdAt)) active.add(c.creatorId);
    if (c.acceptorId !== null && inside(c.acceptedAt)) active.add(c.acceptorId);
  }
  const reported = challenges.filter((c) => inside(c.completedAt));
  const disputed = reported.filter((c) => c.disputeReason !== null).length;
  return {
    stakesVolume: centsToDollarNumber(
      sum(challenges.filter((c) => inside(c.acceptedAt)).map((c) => c.amountCents * 2n)),
    ),
    feesEarned: centsToDollarNumber(postingsOf((_, account) => account === 'house:fees')),
    deposits: centsToDollarNumber(
      -postingsOf(
        (transfer, account) => transfer.kind === 'deposit' && account.startsWith('external:'),
      ),
    ),
    payouts: centsToDollarNumber(
      postingsOf(
        (transfer, account) =>
          transfer.kind === 'payout_complete' && account.startsWith('external:'),
      ),
    ),
    netHousePosition: centsToDollarNumber(postingsOf((_, account) => account.startsWith('house:'))),
    activePlayers: active.size,
    registrations: users.filter((user) => inside(user.createdAt)).length,
    completedChallenges: reported.filter((c) => c.status === 'completed').length,
    disputeRate: reported.length === 0 ? 0 : disputed / reported.length,
  };
}

let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date('2026-03-21T15:00:00Z') });
  ({ agent: admin } = await signInAdmin(t));
  const [row] = await queryRows<{ next: number }>(
    t.database.db,
    sql`select coalesce(max(id), 0)::int + 1 as next from users`,
  );
  plan(Number(row?.next) + 1000);
  await seed(t);
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/overview', () => {
  it('answers every KPI of the range as the fixtures compute it', async () => {
    const response = await admin.get(`/api/admin/overview?from=${RANGE.from}&to=${RANGE.to}`);
    expect(response.statusCode).toBe(200);
    const overview = response.json<Overview>();
    const { daily: _daily, from, to, debts, ...totals } = overview;
    expect({ from, to }).toEqual(RANGE);
    // Nobody's card payment was disputed here: nobody owes (the chargebacks tests count debts).
    expect(debts).toEqual({ total: 0, players: 0 });
    const want = expected(START, END);
    expect(totals.disputeRate).toBeCloseTo(want.disputeRate, 12);
    expect({ ...totals, disputeRate: 0 }).toEqual({ ...want, disputeRate: 0 });
    // The fixtures reach every figure: none is zero by accident.
    for (const value of Object.values(want)) expect(value).not.toBe(0);
  });

  it('answers one row per day, each as the fixtures compute it, and sums to the totals', async () => {
    const overview = (
      await admin.get(`/api/admin/overview?from=${RANGE.from}&to=${RANGE.to}`)
    ).json<Overview>();
    expect(overview.daily).toHaveLength(21);
    for (const [index, day] of overview.daily.entries()) {
      const dayStart = START + index * DAY_MS;
      expect(day.date).toBe(new Date(dayStart).toISOString().slice(0, 10));
      const want = expected(dayStart, dayStart + DAY_MS);
      expect(day.disputeRate).toBeCloseTo(want.disputeRate, 12);
      expect({ ...day, disputeRate: 0 }).toEqual({ date: day.date, ...want, disputeRate: 0 });
    }
    const cents = (pick: (day: Overview['daily'][number]) => number) =>
      overview.daily.reduce((total, day) => total + Math.round(pick(day) * 100), 0);
    expect(cents((day) => day.deposits)).toBe(Math.round(overview.deposits * 100));
    expect(cents((day) => day.feesEarned)).toBe(Math.round(overview.feesEarned * 100));
    // A player active on several days is one active player over the range.
    expect(overview.daily.reduce((total, day) => total + day.activePlayers, 0)).toBeGreaterThan(
      overview.activePlayers,
    );
  });

  it('shows the 30 days up to today when no range is given', async () => {
    const overview = (await admin.get('/api/admin/overview')).json<Overview>();
    expect(overview.from).toBe('2026-02-20');
    expect(overview.to).toBe('2026-03-21');
    expect(overview.daily).toHaveLength(30);
    const want = expected(Date.parse('2026-02-20T00:00:00Z'), END);
    expect(overview.registrations).toBe(want.registrations);
    expect(overview.stakesVolume).toBe(want.stakesVolume);
  });

  it('refuses a backwards, too long or malformed range, and anyone but an admin', async () => {
    for (const query of [
      'from=2026-03-05&to=2026-03-01',
      'from=2024-01-01&to=2026-01-01',
      'from=2026-02-30',
      'to=yesterday',
    ]) {
      const refused = await admin.get(`/api/admin/overview?${query}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('VALIDATION_FAILED');
    }
    const backwards = await admin.get('/api/admin/overview?from=2026-03-05&to=2026-03-01');
    expect(backwards.json().message).toBe(INSIGHTS_MESSAGES.rangeInvalid);
    expect((await new Agent(t.app).get('/api/admin/overview')).statusCode).toBe(401);
  });
});
