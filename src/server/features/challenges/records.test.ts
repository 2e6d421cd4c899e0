import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChallengeView, PlayerRecord } from '#shared/contracts/challenges.ts';
import { queryRows } from '#server/db/client.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { EMPTY_RECORD, findPlayerRecords } from './records.ts';

/**
 * Players' records (docs/fair-play.md), derived from their challenges: played, won, lost, ties
 * lost, disputes opened and lost, no-shows and cancelled matches, on every challenge they appear
 * in.
 */

let now = new Date('2031-03-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { SESSION_IDLE_MINUTES: '43200', SESSION_MAX_DAYS: '365' },
  });
  ({ agent: admin } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

type Player = Awaited<ReturnType<typeof signUp>>;

async function player(): Promise<Player> {
  const signed = await signUp(t.app);
  await fund(t.database, signed.user.id, 100_000n);
  return signed;
}

async function created(creator: Player): Promise<number> {
  const response = await creator.agent.post('/api/challenges', {
    game: 'Street Fighter 6',
    amount: 10,
    gamerTag: 'Ken',
    phoneNumber: '5550105000',
    console: 'PC',
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
}

async function match(creator: Player, acceptor: Player): Promise<number> {
  const id = await created(creator);
  expect((await acceptor.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  return id;
}

async function expectOk(response: Promise<{ statusCode: number; body: string }>) {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(200);
}

const report = (
  by: Player,
  id: number,
  creatorScore: number,
  acceptorScore: number,
  disputeReason?: string,
) =>
  expectOk(
    by.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore,
      acceptorScore,
      screenshot: 'https://example.com/result.png',
      ...(disputeReason ? { disputeReason } : {}),
    }),
  );

const decide = (id: number, outcome: 'creator' | 'acceptor' | 'refund') =>
  expectOk(
    admin.post(`/api/admin/disputes/${id}/resolve`, { outcome, note: 'Checked the evidence' }),
  );

const record = (overrides: Partial<PlayerRecord>): PlayerRecord => ({
  ...EMPTY_RECORD,
  ...overrides,
});

describe('a player’s record', () => {
  it('counts results, ties, disputes either way, no-shows and called-off matches', async () => {
    const [alice, bob, carol, dave, erin] = await Promise.all([
      player(),
      player(),
      player(),
      player(),
      player(),
    ]);

    // Alice wins, and Bob confirms.
    const won = await match(alice, bob);
    await report(alice, won, 3, 1);
    await expectOk(bob.agent.post(`/api/challenges/${won}/confirm`));

    // Level scores: the acceptor wins (docs/product.md#states), still under review.
    await report(alice, await match(alice, bob), 2, 2);

    // Alice reports a false win; Bob disputes it and the admin decides for Bob.
    const overturned = await match(alice, bob);
    await report(alice, overturned, 5, 0);
    await expectOk(bob.agent.post(`/api/challenges/${overturned}/dispute`, { reason: 'Fake' }));
    await decide(overturned, 'acceptor');

    // Carol disputes Alice's honest report, and the admin upholds it.
    const upheld = await match(alice, carol);
    await report(alice, upheld, 1, 0);
    await expectOk(carol.agent.post(`/api/challenges/${upheld}/dispute`, { reason: 'Lag' }));
    await decide(upheld, 'creator');

    // Alice never shows for Carol's match; the admin decides for Carol.
    const absent = await match(carol, alice);
    now = new Date(now.getTime() + 31 * 60_000);
    await expectOk(carol.agent.post(`/api/challenges/${absent}/no-show`));
    await decide(absent, 'creator');

    // Bob reports with a dispute of his own; the admin refunds both.
    const refunded = await match(bob, alice);
    await report(bob, refunded, 0, 0, 'The game crashed');
    await decide(refunded, 'refund');

    // Alice and Carol call a match off; Alice withdraws an open challenge (never a match).
    const calledOff = await match(alice, carol);
    await expectOk(alice.agent.post(`/api/challenges/${calledOff}/cancel`));
    await expectOk(carol.agent.post(`/api/challenges/${calledOff}/cancel`));
    await expectOk(alice.agent.post(`/api/challenges/${await created(alice)}/cancel`));

    // A result settled before reviews existed (migration 0009's call), for Erin, then disputed
    // by Dave: the dispute is Dave's although Erin reported.
    const legacy = await match(dave, erin);
    await queryRows(
      t.database.db,
      sql`select * from challenge_record_result(${legacy}::integer, 'completed',
        ${erin.user.id}::integer, 0, 2, 'https://example.com/result.png', null, null,
        ${erin.user.id}::integer, 2000, 100, ${now.toISOString()}::timestamptz, '[]'::jsonb)`,
    );
    await expectOk(dave.agent.post(`/api/challenges/${legacy}/dispute`, { reason: 'Not me' }));
    await decide(legacy, 'refund');

    const expected = new Map<number, PlayerRecord>([
      [
        alice.user.id,
        record({
          played: 5,
          won: 2,
          lost: 3,
          tiesLost: 1,
          disputesLost: 1,
          noShows: 1,
          cancelled: 2,
        }),
      ],
      [bob.user.id, record({ played: 3, won: 2, lost: 1, disputesOpened: 2, cancelled: 1 })],
      [
        carol.user.id,
        record({ played: 2, won: 1, lost: 1, disputesOpened: 2, disputesLost: 1, cancelled: 1 }),
      ],
      [dave.user.id, record({ disputesOpened: 1, cancelled: 1 })],
      [erin.user.id, record({ cancelled: 1 })],
    ]);
    const ids = [...expected.keys()];
    expect(await findPlayerRecords(t.database.db, [...ids, ...ids])).toEqual(expected);

    // Every challenge shows its players' records, to players and admins alike.
    const view = (await carol.agent.get(`/api/challenges/${absent}`)).json<ChallengeView>();
    expect(view.creator.record).toEqual(expected.get(carol.user.id));
    expect(view.acceptor?.record).toEqual(expected.get(alice.user.id));
    const listed = (await admin.get('/api/admin/challenges')).json<ChallengeView[]>();
    expect(listed.find((challenge) => challenge.id === won)?.acceptor?.record).toEqual(
      expected.get(bob.user.id),
    );
  });

  it('is empty for a new player, and the lobby’s cached page follows a settlement', async () => {
    const [newcomer, rival, onlooker] = await Promise.all([player(), player(), player()]);
    const waiting = await created(newcomer);
    const lobby = async () =>
      (await onlooker.agent.get('/api/challenges?status=open'))
        .json<ChallengeView[]>()
        .find((challenge) => challenge.id === waiting)?.creator.record;
    expect(await lobby()).toEqual(EMPTY_RECORD);
    // Someone who never played has no row: the views show them the empty record.
    expect(await findPlayerRecords(t.database.db, [onlooker.user.id])).toEqual(new Map());

    // The lobby page is cached on this instance again after each read: the settlement's event
    // must drop it.
    const played = await match(rival, newcomer);
    expect(await lobby()).toEqual(EMPTY_RECORD);
    await report(rival, played, 0, 4);
    expect(await lobby()).toEqual(record({ played: 1, won: 1 }));
  });
});
