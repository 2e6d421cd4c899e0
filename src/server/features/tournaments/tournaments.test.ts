import { formatUtc } from '#server/lib/format-time.ts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CLOSE_MESSAGES } from '#shared/contracts/account-data.ts';
import type { NotificationList } from '#shared/contracts/notifications.ts';
import {
  TOURNAMENT_MESSAGES,
  type CreateTournamentBody,
  type TournamentDetail,
  type TournamentMatchView,
} from '#shared/contracts/tournaments.ts';
import { createAppContext } from '#server/context.ts';
import { ledgerAccounts } from '#server/db/schema/ledger.ts';
import { users } from '#server/db/schema/users.ts';
import { HOUSE_FEES, tournamentEscrow } from '#server/features/ledger/accounts.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import { multipart, multipartForm, sampleFile } from '#tests/helpers/multipart.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { seededOrder } from './bracket.ts';
import { runTournamentPass } from './worker.ts';

/** Tournaments through the API (issue 23, docs/tournaments.md). */

const MINUTE_MS = 60_000;
/** Longer than the whole tournaments below take, unless a test waits for it. */
const MATCH_MINUTES = 240;
let now = new Date('2031-05-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let admin: Agent;

beforeAll(async () => {
  // The clock moves ahead here: sessions must outlive it.
  t = await createTestApp({
    clock,
    env: {
      SESSION_IDLE_MINUTES: '43200',
      SESSION_MAX_DAYS: '365',
      TOURNAMENT_MATCH_MINUTES: String(MATCH_MINUTES),
    },
  });
  ({ agent: admin } = await signInAdmin(t));
});
afterEach(async () => {
  // Each test starts its own tournaments: none left open may start in the next one.
  for (const row of (await admin.get('/api/tournaments')).json<TournamentDetail[]>()) {
    if (row.status === 'open' || row.status === 'live')
      await admin.post(`/api/admin/tournaments/${row.id}/cancel`);
  }
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus, clock });
const pass = () => runTournamentPass(ctx());

interface Player {
  agent: Agent;
  id: number;
  password: string;
}

async function players(count: number, dollars = 10): Promise<Player[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const { agent, user, password } = await signUp(t.app);
      await fund(t.database, user.id, BigInt(dollars * 100));
      return { agent, id: user.id, password };
    }),
  );
}

async function create(body: Partial<CreateTournamentBody> = {}): Promise<TournamentDetail> {
  const response = await admin.post('/api/admin/tournaments', {
    game: 'Tekken 8',
    console: 'PlayStation',
    entryFee: 3,
    size: 8,
    startsAt: new Date(now.getTime() + 60 * MINUTE_MS).toISOString(),
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function joinAll(id: number, entrants: Player[]): Promise<void> {
  for (const entrant of entrants) {
    const response = await entrant.agent.post(`/api/tournaments/${id}/join`);
    expect(response.statusCode, response.body).toBe(200);
  }
}

async function detail(id: number): Promise<TournamentDetail> {
  const response = await admin.get(`/api/tournaments/${id}`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Moves the clock past the start and runs the worker. */
async function start(tournament: TournamentDetail): Promise<TournamentDetail> {
  now = new Date(new Date(tournament.startsAt).getTime() + MINUTE_MS);
  expect(await pass()).toMatchObject({ started: 1 });
  return detail(tournament.id);
}

function matchOf(view: TournamentDetail, round: number, slot: number): TournamentMatchView {
  const match = view.matches.find((m) => m.round === round && m.slot === slot);
  if (!match) throw new Error(`no match ${round}/${slot}`);
  return match;
}

function sides(match: TournamentMatchView, by: Map<number, Player>): [Player, Player] {
  const a = match.playerA && by.get(match.playerA.id);
  const b = match.playerB && by.get(match.playerB.id);
  if (!a || !b) throw new Error(`match ${match.id} is not ready`);
  return [a, b];
}

const url = (view: TournamentDetail, match: TournamentMatchView, action: string) =>
  `/api/tournaments/${view.id}/matches/${match.id}/${action}`;

/** The first player reports a win of the first player (3–1) or of the second (1–3). */
function report(view: TournamentDetail, match: TournamentMatchView, by: Player, aWins: boolean) {
  return by.agent.post(url(view, match, 'submit'), {
    creatorScore: aWins ? 3 : 1,
    acceptorScore: aWins ? 1 : 3,
    screenshot: 'https://example.com/result.png',
  });
}

async function houseFees(): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, HOUSE_FEES));
  return row?.balance ?? 0n;
}

async function escrowOf(id: number): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balance: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, tournamentEscrow(id)));
  return row?.balance ?? 0n;
}

describe('creating, joining, leaving', () => {
  it('refuses bad tournaments with a stable code and a clear message', async () => {
    const cases: Array<[Partial<CreateTournamentBody>, string]> = [
      [{ size: 6 }, TOURNAMENT_MESSAGES.size],
      [{ entryFee: 2.5 }, TOURNAMENT_MESSAGES.entryFeeWhole],
      [{ prizeSplit: [60, 30] }, TOURNAMENT_MESSAGES.splitSum],
      [{ prizeSplit: [50, 50.5] }, TOURNAMENT_MESSAGES.splitPercent],
      [{ size: 4, prizeSplit: [20, 20, 20, 20, 20] }, TOURNAMENT_MESSAGES.splitPlaces],
      [{ startsAt: 'tomorrow' }, TOURNAMENT_MESSAGES.startsAt],
      [
        { startsAt: new Date(now.getTime() - MINUTE_MS).toISOString() },
        TOURNAMENT_MESSAGES.startsAtPast,
      ],
      [{ game: ' ' }, TOURNAMENT_MESSAGES.gameRequired],
    ];
    for (const [body, message] of cases) {
      const response = await admin.post('/api/admin/tournaments', {
        game: 'Tekken 8',
        console: 'PlayStation',
        entryFee: 3,
        size: 8,
        startsAt: new Date(now.getTime() + 60 * MINUTE_MS).toISOString(),
        ...body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(response.body).toContain(message);
    }
  });

  it('lists a new tournament with its fee, pool and places left; joins and leaves move the fee', async () => {
    const tournament = await create({ size: 4, entryFee: 5 });
    expect(tournament).toMatchObject({ status: 'open', prizeSplit: [70, 30], placesLeft: 4 });
    const [first, second] = await players(2);
    if (!first || !second) throw new Error('two players');
    await joinAll(tournament.id, [first, second]);
    expect(await balanceOf(t.database, first.id)).toBe(500n);
    const again = await first.agent.post(`/api/tournaments/${tournament.id}/join`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: TOURNAMENT_MESSAGES.alreadyJoined });

    const list = (await first.agent.get('/api/tournaments')).json<TournamentDetail[]>();
    // Two fees of $5 minus the 5% fee.
    expect(list.find((row) => row.id === tournament.id)).toMatchObject({
      entrants: 2,
      placesLeft: 2,
      prizePool: 9.5,
      entryFee: 5,
      joined: true,
    });

    const left = await first.agent.post(`/api/tournaments/${tournament.id}/leave`);
    expect(left.statusCode).toBe(200);
    expect(left.json()).toMatchObject({ entrants: 1, joined: false });
    expect(await balanceOf(t.database, first.id)).toBe(1000n);
    const twice = await first.agent.post(`/api/tournaments/${tournament.id}/leave`);
    expect(twice.json()).toMatchObject({
      code: 'CONFLICT',
      message: TOURNAMENT_MESSAGES.notJoined,
    });
    // A player who left may join again: a new entry, a new fee.
    await joinAll(tournament.id, [first]);
    expect(await balanceOf(t.database, first.id)).toBe(500n);
    expect(await escrowOf(tournament.id)).toBe(1000n);

    const [poor] = await players(1, 2);
    if (!poor) throw new Error('a player');
    const refused = await poor.agent.post(`/api/tournaments/${tournament.id}/join`);
    expect(refused.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect((await detail(tournament.id)).entrants).toBe(2);

    const missing = await first.agent.post('/api/tournaments/999999/join');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: TOURNAMENT_MESSAGES.notFound });

    const cancelled = await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
  });

  it('refuses a join when every place is taken, before charging anything', async () => {
    const tournament = await create({ size: 4 });
    const entrants = await players(5);
    await joinAll(tournament.id, entrants.slice(0, 4));
    const late = entrants[4];
    if (!late) throw new Error('a fifth player');
    const refused = await late.agent.post(`/api/tournaments/${tournament.id}/join`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'TOURNAMENT_FULL',
      message: TOURNAMENT_MESSAGES.full,
    });
    expect(await balanceOf(t.database, late.id)).toBe(1000n);
    await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
  });

  it('an admin cancellation refunds every entry, once', async () => {
    const tournament = await create({ size: 4, entryFee: 4 });
    const entrants = await players(3);
    await joinAll(tournament.id, entrants);
    const cancelled = await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', entrants: 0 });
    for (const entrant of entrants) expect(await balanceOf(t.database, entrant.id)).toBe(1000n);
    expect(await escrowOf(tournament.id)).toBe(0n);
    const again = await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      message: TOURNAMENT_MESSAGES.cannotCancel,
    });
    const join = await entrants[0]?.agent.post(`/api/tournaments/${tournament.id}/join`);
    expect(join?.json()).toMatchObject({ code: 'TOURNAMENT_NOT_OPEN' });
    const news = (await entrants[0]?.agent.get('/api/notifications'))?.json<NotificationList>();
    expect(news?.notifications[0]).toMatchObject({ kind: 'tournament_cancelled' });
  });

  it('not full at its start and without byes: cancelled and refunded by the worker', async () => {
    const tournament = await create({ size: 4 });
    const entrants = await players(3);
    await joinAll(tournament.id, entrants);
    expect(await pass()).toMatchObject({ started: 0 });
    now = new Date(new Date(tournament.startsAt).getTime() + 1000);
    const leave = await entrants[0]?.agent.post(`/api/tournaments/${tournament.id}/leave`);
    expect(leave?.json()).toMatchObject({
      code: 'TOURNAMENT_NOT_OPEN',
      message: TOURNAMENT_MESSAGES.leaveStarted,
    });
    expect(await pass()).toMatchObject({ started: 1 });
    expect(await pass()).toMatchObject({ started: 0 });
    expect(await detail(tournament.id)).toMatchObject({ status: 'cancelled', seed: null });
    for (const entrant of entrants) expect(await balanceOf(t.database, entrant.id)).toBe(1000n);
  });
});

describe('a whole tournament', () => {
  it('8 players: every match reported, one dispute overturned, one no-show, exact payouts', async () => {
    // $3 × 8 = $24.00; the fee is $1.20; $22.80 is shared 34/33/33 by place: the runner-up
    // 33% (752.4 → $7.52), the semi-finalists 33% over places 3–4 (376.2 → $3.76 each), the
    // champion the rest, $7.76 (34% would be 775.2: the rounding's 0.8 cent goes to them).
    const tournament = await create({ prizeSplit: [34, 33, 33] });
    const entrants = await players(8);
    const by = new Map(entrants.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, entrants);
    const feesBefore = await houseFees();
    const [ninth] = await players(1);
    const full = await ninth?.agent.post(`/api/tournaments/${tournament.id}/join`);
    expect(full?.json()).toMatchObject({ code: 'TOURNAMENT_FULL' });

    let view = await start(tournament);
    expect(view.status).toBe('live');
    expect(view.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(view.rounds).toBe(3);
    expect(view.matches).toHaveLength(7);
    // The recorded seed draws the same bracket again from the entries in joining order.
    const drawn = seededOrder(
      entrants.map((entrant) => entrant.id),
      view.seed ?? '',
    );
    for (let slot = 0; slot < 4; slot += 1) {
      expect(matchOf(view, 1, slot)).toMatchObject({
        status: 'playing',
        playerA: { id: drawn[slot] },
        playerB: { id: drawn[4 + slot] },
      });
    }
    const firstNews = (
      await entrants[0]?.agent.get('/api/notifications')
    )?.json<NotificationList>();
    expect(firstNews?.notifications[0]).toMatchObject({ kind: 'tournament_match' });

    // Match 1: reported and confirmed.
    let match = matchOf(view, 1, 0);
    let [a, b] = sides(match, by);
    expect((await report(view, match, a, true)).json().matches[0]).toMatchObject({
      status: 'reported',
      winnerId: a.id,
    });
    const own = await a.agent.post(url(view, match, 'confirm'));
    expect(own.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: TOURNAMENT_MESSAGES.confirmOwnReport,
    });
    const outsider = await entrants
      .find((p) => p !== a && p !== b)
      ?.agent.post(url(view, match, 'confirm'));
    expect(outsider?.json()).toMatchObject({ code: 'NOT_PARTICIPANT' });
    expect((await b.agent.post(url(view, match, 'confirm'))).statusCode).toBe(200);
    const champion1 = a;

    // Match 2: a false report, disputed and overturned by an admin.
    match = matchOf(view, 1, 1);
    [a, b] = sides(match, by);
    await report(view, match, a, true);
    const disputed = await b.agent.post(url(view, match, 'dispute'), { reason: 'I won 3–0' });
    expect(disputed.statusCode).toBe(200);
    expect(matchOf(disputed.json(), 1, 1)).toMatchObject({
      status: 'disputed',
      disputeReason: 'I won 3–0',
    });
    const confirmDisputed = await a.agent.post(url(view, match, 'confirm'));
    expect(confirmDisputed.json()).toMatchObject({ message: TOURNAMENT_MESSAGES.confirmDisputed });
    const notPlayer = await admin.post(
      `/api/admin/tournaments/${view.id}/matches/${match.id}/resolve`,
      { winnerId: champion1.id },
    );
    expect(notPlayer.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: TOURNAMENT_MESSAGES.winnerNotPlayer,
    });
    const byPlayer = await a.agent.post(
      `/api/admin/tournaments/${view.id}/matches/${match.id}/resolve`,
      {
        winnerId: a.id,
      },
    );
    expect(byPlayer.statusCode).toBe(403);
    // Both sides put their evidence before the admin, as on a challenge.
    const statement = await b.agent.request({
      method: 'POST',
      url: url(view, match, 'evidence'),
      ...multipartForm({ statement: 'The last round was mine.' }),
    });
    expect(statement.statusCode, statement.body).toBe(201);
    const picture = await a.agent.request({
      method: 'POST',
      url: url(view, match, 'evidence'),
      ...multipart('file', 'final.png', 'image/png', sampleFile('png')),
    });
    expect(picture.statusCode, picture.body).toBe(201);
    const evidence = await admin.get(url(view, match, 'evidence'));
    expect(evidence.json()).toMatchObject([
      { userId: b.id, statement: 'The last round was mine.', file: null },
      { userId: a.id, statement: null, file: { contentType: 'image/png' } },
    ]);
    // The file is for both players of the match and the admins, as a challenge's evidence.
    const fileUrl = picture.json<{ file: { url: string } }>().file.url;
    for (const reader of [a.agent, b.agent, admin]) {
      const read = await reader.get(fileUrl);
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toBe('image/png');
    }
    const bystander = entrants.find((entrant) => entrant !== a && entrant !== b);
    expect((await bystander!.agent.get(fileUrl)).statusCode).toBe(404);
    const empty = await a.agent.request({
      method: 'POST',
      url: url(view, match, 'evidence'),
      ...multipartForm({ statement: ' ' }),
    });
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const overturned = await admin.post(
      `/api/admin/tournaments/${view.id}/matches/${match.id}/resolve`,
      {
        winnerId: b.id,
      },
    );
    expect(matchOf(overturned.json(), 1, 1)).toMatchObject({
      status: 'done',
      winnerId: b.id,
      standCause: 'decided',
    });
    // Both semi-final places above are now known: the first semi-final is on.
    expect(matchOf(overturned.json(), 2, 0)).toMatchObject({
      status: 'playing',
      playerA: { id: champion1.id },
      playerB: { id: b.id },
    });
    const semiNews = (await b.agent.get('/api/notifications')).json<NotificationList>();
    expect(semiNews.notifications.map((n) => n.kind)).toContain('tournament_match');

    // Match 3: a no-show, allowed once the wait after the start has passed.
    match = matchOf(view, 1, 2);
    [a, b] = sides(match, by);
    const early = await a.agent.post(url(view, match, 'no-show'));
    expect(early.json()).toMatchObject({ message: TOURNAMENT_MESSAGES.noShowTooEarly });
    now = new Date(now.getTime() + 31 * MINUTE_MS);
    const claimed = await a.agent.post(url(view, match, 'no-show'));
    expect(matchOf(claimed.json(), 1, 2)).toMatchObject({
      status: 'disputed',
      disputeReason: 'No-show',
    });
    await admin.post(`/api/admin/tournaments/${view.id}/matches/${match.id}/resolve`, {
      winnerId: a.id,
    });

    // Match 4: nobody answers the report; it stands when the review ends.
    match = matchOf(view, 1, 3);
    [a, b] = sides(match, by);
    await report(view, match, a, false);
    expect(await pass()).toMatchObject({ stood: 0 });
    now = new Date(now.getTime() + 31 * MINUTE_MS);
    const late = await b.agent.post(url(view, match, 'dispute'), { reason: 'Too late' });
    expect(late.json()).toMatchObject({ message: TOURNAMENT_MESSAGES.disputeNotAllowed });
    expect(await pass()).toMatchObject({ stood: 1 });
    view = await detail(view.id);
    expect(matchOf(view, 1, 3)).toMatchObject({
      status: 'done',
      winnerId: b.id,
      standCause: 'review_ended',
    });

    // Semi-final 1: the opponent reports the same result, which agrees with it.
    match = matchOf(view, 2, 0);
    [a, b] = sides(match, by);
    await report(view, match, a, true);
    const agreed = await report(view, match, b, true);
    expect(matchOf(agreed.json(), 2, 0)).toMatchObject({ status: 'done', standCause: 'agreed' });
    const finalistA = a;
    const semiLoser1 = b;

    // Semi-final 2: the first player reports their own loss, the other confirms.
    match = matchOf(view, 2, 1);
    [a, b] = sides(match, by);
    await report(view, match, a, false);
    await b.agent.post(url(view, match, 'confirm'));
    const finalistB = b;
    const semiLoser2 = a;

    // The final.
    view = await detail(view.id);
    match = matchOf(view, 3, 0);
    expect(match).toMatchObject({
      status: 'playing',
      playerA: { id: finalistA.id },
      playerB: { id: finalistB.id },
    });
    await report(view, match, finalistA, true);
    const final = await finalistB.agent.post(url(view, match, 'confirm'));
    view = final.json();
    expect(view).toMatchObject({ status: 'finished', winnerId: finalistA.id, placesLeft: 0 });

    const expected = new Map<number, bigint>([
      [finalistA.id, 776n],
      [finalistB.id, 752n],
      [semiLoser1.id, 376n],
      [semiLoser2.id, 376n],
    ]);
    let paid = 0n;
    for (const entrant of entrants) {
      const prize = expected.get(entrant.id) ?? 0n;
      paid += prize;
      expect(await balanceOf(t.database, entrant.id)).toBe(700n + prize);
    }
    expect(paid).toBe(2280n);
    expect((await houseFees()) - feesBefore).toBe(120n);
    expect(await escrowOf(view.id)).toBe(0n);
    expect(view.entries.slice(0, 4)).toMatchObject([
      { id: finalistA.id, place: 1, prize: 7.76 },
      { id: finalistB.id, place: 2, prize: 7.52 },
      { place: 3, prize: 3.76 },
      { place: 3, prize: 3.76 },
    ]);
    const winnerNews = (await finalistA.agent.get('/api/notifications')).json<NotificationList>();
    expect(winnerNews.notifications[0]).toMatchObject({
      kind: 'tournament_finished',
      title: `Tournament #${view.id}: you won $7.76`,
    });
    const afterwards = await finalistA.agent.post(url(view, match, 'confirm'));
    expect(afterwards.statusCode).toBe(409);
  });

  it('with byes allowed, five players start in a bracket of eight and the byes go through', async () => {
    const tournament = await create({ allowByes: true, entryFee: 2 });
    const entrants = await players(5);
    const by = new Map(entrants.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, entrants);
    let view = await start(tournament);
    expect(view.rounds).toBe(3);
    const byes = view.matches.filter((m) => m.round === 1 && m.standCause === 'bye');
    expect(byes).toHaveLength(3);
    // The two byes below the second semi-final meet at once.
    expect(matchOf(view, 2, 1).status).toBe('playing');
    for (const [round, slot] of [
      [1, 0],
      [2, 0],
      [2, 1],
      [3, 0],
    ] as const) {
      view = await detail(view.id);
      const match = matchOf(view, round, slot);
      const [a, b] = sides(match, by);
      await report(view, match, a, true);
      expect((await b.agent.post(url(view, match, 'confirm'))).statusCode).toBe(200);
    }
    view = await detail(view.id);
    // $10.00 − $0.50 fee = $9.50: 70% to the champion ($6.65), 30% to the runner-up ($2.85).
    expect(view).toMatchObject({ status: 'finished' });
    expect(view.entries.slice(0, 2)).toMatchObject([
      { place: 1, prize: 6.65 },
      { place: 2, prize: 2.85 },
    ]);
    expect(await escrowOf(view.id)).toBe(0n);
  });

  it('an admin may cancel a live tournament: every entry fee comes back', async () => {
    const tournament = await create({ size: 4 });
    const entrants = await players(4);
    await joinAll(tournament.id, entrants);
    await start(tournament);
    const cancelled = await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    for (const entrant of entrants) expect(await balanceOf(t.database, entrant.id)).toBe(1000n);
  });
});

describe("the admins' queue of disputed matches", () => {
  it('lists a disputed match with its evidence beside the challenges, and forgets it once decided there', async () => {
    const tournament = await create({ size: 4 });
    const four = await players(4);
    const by = new Map(four.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, four);
    const view = await start(tournament);
    const match = matchOf(view, 1, 1);
    const [a, b] = sides(match, by);
    await report(view, match, a, true);
    expect(
      (await b.agent.post(url(view, match, 'dispute'), { reason: 'I won 3–2' })).statusCode,
    ).toBe(200);
    await b.agent.request({
      method: 'POST',
      url: url(view, match, 'evidence'),
      ...multipartForm({ statement: 'The replay shows it.' }),
    });
    // The challenges' queue keeps its shape: it has no tournament match.
    const challenges = (await admin.get('/api/admin/disputes')).json<Array<{ id: number }>>();
    expect(challenges).toEqual([]);
    const queue = await admin.get('/api/admin/tournament-disputes');
    expect(queue.statusCode).toBe(200);
    expect(queue.json()).toEqual([
      {
        tournamentId: view.id,
        game: 'Tekken 8',
        console: 'PlayStation',
        rounds: 2,
        matchId: match.id,
        round: 1,
        playerA: match.playerA,
        playerB: match.playerB,
        scoreA: 3,
        scoreB: 1,
        reportedBy: a.id,
        reportedAt: now.toISOString(),
        noShowClaimedBy: null,
        disputeReason: 'I won 3–2',
        screenshotUrl: 'https://example.com/result.png',
        notes: null,
        evidence: [expect.objectContaining({ userId: b.id, statement: 'The replay shows it.' })],
      },
    ]);
    expect((await a.agent.get('/api/admin/tournament-disputes')).statusCode).toBe(403);
    const decided = await admin.post(
      `/api/admin/tournaments/${view.id}/matches/${match.id}/resolve`,
      { winnerId: b.id },
    );
    expect(decided.statusCode).toBe(200);
    expect((await admin.get('/api/admin/tournament-disputes')).json()).toEqual([]);
  });
});

describe('the time limit of a match', () => {
  it('decides once what nobody played: the higher seed, or an unanswered no-show claim, goes on', async () => {
    const tournament = await create({ size: 4 });
    const four = await players(4);
    const by = new Map(four.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, four);
    let view = await start(tournament);
    const began = now.getTime();
    const unplayed = matchOf(view, 1, 0);
    expect(unplayed.deadlineAt).toBe(new Date(began + MATCH_MINUTES * MINUTE_MS).toISOString());
    const claimed = matchOf(view, 1, 1);
    const [claimant, absent] = sides(claimed, by);

    now = new Date(began + (MATCH_MINUTES - 1) * MINUTE_MS);
    expect((await claimant.agent.post(url(view, claimed, 'no-show'))).statusCode).toBe(200);
    expect(await pass()).toMatchObject({ timedOut: 0 });
    // The claim waits NO_SHOW_MINUTES for an answer, past the match's own limit.
    view = await detail(view.id);
    expect(matchOf(view, 1, 1).deadlineAt).toBe(
      new Date(began + (MATCH_MINUTES - 1 + 30) * MINUTE_MS).toISOString(),
    );
    now = new Date(began + (MATCH_MINUTES + 1) * MINUTE_MS);
    expect(await pass()).toMatchObject({ timedOut: 1 });
    view = await detail(view.id);
    expect(matchOf(view, 1, 0)).toMatchObject({
      status: 'done',
      winnerId: unplayed.playerA?.id,
      standCause: 'time_limit',
      deadlineAt: null,
    });
    expect(matchOf(view, 1, 1).status).toBe('disputed');

    now = new Date(began + (MATCH_MINUTES + 30) * MINUTE_MS);
    expect(await pass()).toMatchObject({ timedOut: 1 });
    expect(await pass()).toMatchObject({ timedOut: 0 });
    view = await detail(view.id);
    expect(matchOf(view, 1, 1)).toMatchObject({
      status: 'done',
      winnerId: claimant.id,
      standCause: 'no_show',
    });
    const final = matchOf(view, 2, 0);
    expect(final).toMatchObject({
      status: 'playing',
      playerA: { id: unplayed.playerA?.id },
      playerB: { id: claimant.id },
      deadlineAt: new Date(now.getTime() + MATCH_MINUTES * MINUTE_MS).toISOString(),
    });
    const news = (await absent.agent.get('/api/notifications')).json<NotificationList>();
    expect(news.notifications[0]).toMatchObject({
      kind: 'tournament_result',
      title: `Tournament #${view.id}: your round 1 match ran out of time`,
    });
    expect(news.notifications[0]?.body).toContain('you did not answer the no-show claim');
    // When the claim was made, the absent player was told by when to answer, and what follows.
    const claim = news.notifications.find((n) => n.title.endsWith('reported a no-show'));
    expect(claim?.body).toContain(
      `before ${formatUtc(new Date(began + (MATCH_MINUTES - 1 + 30) * MINUTE_MS))}`,
    );
    expect(claim?.body).toContain('without it, your opponent goes on then');

    // Nobody plays the final either: the higher seed is the champion, paid once.
    now = new Date(now.getTime() + (MATCH_MINUTES + 1) * MINUTE_MS);
    expect(await pass()).toMatchObject({ timedOut: 1 });
    expect(await pass()).toMatchObject({ timedOut: 0 });
    expect(await detail(view.id)).toMatchObject({
      status: 'finished',
      winnerId: unplayed.playerA?.id,
    });
    expect(await escrowOf(view.id)).toBe(0n);
  });

  it('lets the player whose opponent closed their account go on, even as the lower seed', async () => {
    const tournament = await create({ size: 4 });
    const four = await players(4);
    const by = new Map(four.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, four);
    let view = await start(tournament);
    const began = now.getTime();
    const [higher, lower] = sides(matchOf(view, 1, 0), by);
    const deleted = await admin.request({
      method: 'DELETE',
      url: `/api/admin/users/${higher.id}`,
      payload: { reason: 'Asked to leave' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    now = new Date(began + (MATCH_MINUTES + 1) * MINUTE_MS);
    expect(await pass()).toMatchObject({ timedOut: 1 });
    view = await detail(view.id);
    expect(matchOf(view, 1, 0)).toMatchObject({
      status: 'done',
      winnerId: lower.id,
      standCause: 'time_limit',
    });
    // Nobody closed an account in the other match: its higher seed goes on.
    const other = matchOf(view, 1, 1);
    expect(other).toMatchObject({ winnerId: other.playerA?.id, standCause: 'time_limit' });
  });

  it('leaves a no-show claim the other player answered to the admins', async () => {
    const tournament = await create({ size: 4 });
    const four = await players(4);
    const by = new Map(four.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, four);
    let view = await start(tournament);
    const began = now.getTime();
    const match = matchOf(view, 1, 0);
    const [claimant, accused] = sides(match, by);
    now = new Date(began + 31 * MINUTE_MS);
    expect((await claimant.agent.post(url(view, match, 'no-show'))).statusCode).toBe(200);
    const answer = await accused.agent.request({
      method: 'POST',
      url: url(view, match, 'evidence'),
      ...multipartForm({ statement: 'I was in the lobby the whole time.' }),
    });
    expect(answer.statusCode).toBe(201);
    now = new Date(began + 2 * MATCH_MINUTES * MINUTE_MS);
    // The other match, nobody played, is decided; the answered claim is not.
    expect(await pass()).toMatchObject({ timedOut: 1 });
    expect(await pass()).toMatchObject({ timedOut: 0 });
    view = await detail(view.id);
    expect(matchOf(view, 1, 0)).toMatchObject({ status: 'disputed', deadlineAt: null });
    expect(matchOf(view, 1, 1)).toMatchObject({ status: 'done', standCause: 'time_limit' });
  });
});

describe('closing an account with a tournament entry', () => {
  const close = (player: Player) =>
    player.agent.post('/api/me/close', { password: player.password });
  const refusal = (...reasons: string[]) => ({
    code: 'MONEY_HELD',
    message: ACCOUNT_CLOSE_MESSAGES.moneyHeld(reasons),
  });

  it('is refused before the start, in the bracket and out of it until the end; allowed after', async () => {
    const tournament = await create({ size: 4 });
    const four = await players(4);
    const by = new Map(four.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, four);
    const first = four[0]!;
    expect((await close(first)).json()).toEqual(
      refusal(ACCOUNT_CLOSE_MESSAGES.tournamentOpen(tournament.id)),
    );

    let view = await start(tournament);
    expect((await close(first)).json()).toEqual(
      refusal(ACCOUNT_CLOSE_MESSAGES.tournamentPlaying(tournament.id)),
    );
    const semi = matchOf(view, 1, 0);
    const [a, b] = sides(semi, by);
    await report(view, semi, a, true);
    expect((await b.agent.post(url(view, semi, 'confirm'))).statusCode).toBe(200);
    // Out, but an admin's cancellation would still refund the fee.
    expect((await close(b)).json()).toEqual(
      refusal(ACCOUNT_CLOSE_MESSAGES.tournamentOut(tournament.id)),
    );
    expect((await close(a)).json()).toEqual(
      refusal(ACCOUNT_CLOSE_MESSAGES.tournamentPlaying(tournament.id)),
    );

    const other = matchOf(view, 1, 1);
    const [c, d] = sides(other, by);
    await report(view, other, c, true);
    await d.agent.post(url(view, other, 'confirm'));
    view = await detail(view.id);
    const final = matchOf(view, 2, 0);
    const [winner, loser] = sides(final, by);
    await report(view, final, winner, true);
    await loser.agent.post(url(view, final, 'confirm'));
    expect(await detail(view.id)).toMatchObject({ status: 'finished' });
    // The prize is in the wallet now: it goes to the operator's unclaimed funds like any balance.
    for (const player of [b, winner]) expect((await close(player)).statusCode).toBe(200);
  });

  it('is allowed once the player left the tournament before its start', async () => {
    const tournament = await create({ size: 4 });
    const [me] = await players(1);
    await joinAll(tournament.id, [me!]);
    expect((await close(me!)).statusCode).toBe(409);
    expect((await me!.agent.post(`/api/tournaments/${tournament.id}/leave`)).statusCode).toBe(200);
    expect((await close(me!)).statusCode).toBe(200);
  });
});

describe('players who may no longer play for money (issue 35)', () => {
  const notificationTitles = async (player: Player) =>
    (await player.agent.get('/api/notifications'))
      .json<NotificationList>()
      .notifications.map((notification) => notification.title);

  it('a time-out, a self-exclusion and a suspension give up places not yet played, fee back', async () => {
    const tournament = await create({ size: 4 });
    const [resting, excluded, suspended, stays] = await players(4);
    await joinAll(tournament.id, [resting!, excluded!, suspended!, stays!]);
    expect(await balanceOf(t.database, resting!.id)).toBe(700n);

    expect(
      (await resting!.agent.post('/api/responsible-gaming/time-out', { days: 1 })).statusCode,
    ).toBe(200);
    expect(
      (await excluded!.agent.post('/api/responsible-gaming/self-exclusion', { months: 6 }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await admin.post(`/api/admin/users/${suspended!.id}/suspend`, {
          reason: 'Chargeback under review',
        })
      ).statusCode,
    ).toBe(200);

    for (const player of [resting!, excluded!, suspended!]) {
      expect(await balanceOf(t.database, player.id)).toBe(1000n);
      expect(await notificationTitles(player)).toContain(
        `Tournament #${tournament.id}: your place was given up and your entry fee is back`,
      );
    }
    const view = await detail(tournament.id);
    expect(view.entries.map((entry) => entry.id)).toEqual([stays!.id]);
    expect(await balanceOf(t.database, stays!.id)).toBe(700n);
    const [escrow] = await t.database.db
      .select({ balanceCents: ledgerAccounts.balanceCents })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.key, tournamentEscrow(tournament.id)));
    expect(escrow?.balanceCents).toBe(300n);
  });

  it('the start withdraws anyone who may not play, whatever let them stay entered', async () => {
    const tournament = await create({ size: 4, allowByes: true });
    const [first, second, barred] = await players(3);
    await joinAll(tournament.id, [first!, second!, barred!]);
    // A break taken at the very moment of a join: the join had read the player's standing
    // before the break committed, so the place stayed (as a race can leave it).
    await t.database.db
      .update(users)
      .set({ playBreakKind: 'time_out', playBreakUntil: new Date(now.getTime() + 86_400_000) })
      .where(eq(users.id, barred!.id));

    const view = await start(tournament);
    expect(view.status).toBe('live');
    const drawn = view.matches.flatMap((match) => [match.playerA?.id, match.playerB?.id]);
    expect(drawn).not.toContain(barred!.id);
    expect(view.entries.map((entry) => entry.id).sort()).toEqual([first!.id, second!.id].sort());
    expect(await balanceOf(t.database, barred!.id)).toBe(1000n);
    expect(await notificationTitles(barred!)).toContain(
      `Tournament #${tournament.id}: your place was given up and your entry fee is back`,
    );
  });
});

describe('a worker that dies mid-way', () => {
  /** A worker whose ledger fails on the transfer of `kind` after `allowed` others went through. */
  const dyingWorker = (kind: string, allowed: number) => {
    let posted = 0;
    return createAppContext({
      env: t.env,
      database: t.database,
      bus: t.bus,
      clock,
      wrapLedger: (ledger) => ({
        ...ledger,
        post: async (uow, input) => {
          if (input.kind === kind && posted++ >= allowed) throw new Error('killed mid-way');
          return ledger.post(uow, input);
        },
      }),
    });
  };

  it('leaves a start or a payout due, and the next pass does it once', async () => {
    // A cancellation that dies after one of its three refunds: nothing of it stays.
    const short = await create({ size: 4 });
    const entrants = await players(3);
    await joinAll(short.id, entrants);
    now = new Date(new Date(short.startsAt).getTime() + MINUTE_MS);
    await expect(runTournamentPass(dyingWorker('refund', 1))).rejects.toThrow('killed mid-way');
    expect(await detail(short.id)).toMatchObject({ status: 'open', entrants: 3 });
    for (const entrant of entrants) expect(await balanceOf(t.database, entrant.id)).toBe(700n);
    expect(await pass()).toMatchObject({ started: 1 });
    for (const entrant of entrants) expect(await balanceOf(t.database, entrant.id)).toBe(1000n);

    // A final whose review ends while the payout dies: the result stays due, then pays once.
    const tournament = await create({ size: 4 });
    const four = await players(4);
    const by = new Map(four.map((entrant) => [entrant.id, entrant]));
    await joinAll(tournament.id, four);
    let view = await start(tournament);
    for (const slot of [0, 1]) {
      const match = matchOf(view, 1, slot);
      const [a, b] = sides(match, by);
      await report(view, match, a, true);
      await b.agent.post(url(view, match, 'confirm'));
    }
    view = await detail(view.id);
    const final = matchOf(view, 2, 0);
    await report(view, final, sides(final, by)[0], true);
    now = new Date(now.getTime() + 31 * MINUTE_MS);
    await expect(runTournamentPass(dyingWorker('prize', 0))).rejects.toThrow('killed mid-way');
    expect(matchOf(await detail(view.id), 2, 0).status).toBe('reported');
    expect(await escrowOf(view.id)).toBe(1200n);
    expect(await pass()).toMatchObject({ stood: 1 });
    expect(await pass()).toMatchObject({ stood: 0 });
    expect(await detail(view.id)).toMatchObject({ status: 'finished' });
    expect(await escrowOf(view.id)).toBe(0n);
  });
});
