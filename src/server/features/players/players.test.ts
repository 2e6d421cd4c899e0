import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChallengeView, CreateChallengeBody } from '#shared/contracts/challenges.ts';
import {
  PLAYER_MESSAGES,
  type Leaderboard,
  type LeaderboardRow,
  type PlayerProfile,
} from '#shared/contracts/players.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { periodStart } from './repository.ts';

/** Player pages, leaderboards and game suggestions (docs/challenges.md#finding-an-opponent). */
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

type Player = Awaited<ReturnType<typeof signUp>>;

async function fundedPlayer(): Promise<Player> {
  const player = await signUp(t.app);
  await fund(t.database, player.user.id, 100_000n);
  return player;
}

let games = 0;
const uniqueGame = (name: string) => {
  games += 1;
  return `${name} ${games}`;
};

async function play(
  creator: Player,
  acceptor: Player,
  body: Partial<CreateChallengeBody> & { creatorScore: number; acceptorScore: number },
): Promise<ChallengeView> {
  const { creatorScore, acceptorScore, ...overrides } = body;
  const created = await creator.agent.post('/api/challenges', {
    game: 'Chess',
    amount: 10,
    gamerTag: 'Tag',
    phoneNumber: '+1 555 010 3000',
    console: 'PC',
    ...overrides,
  });
  expect(created.statusCode).toBe(201);
  const challenge = created.json<ChallengeView>();
  expect((await acceptor.agent.post(`/api/challenges/${challenge.id}/accept`)).statusCode).toBe(
    200,
  );
  const submitted = await creator.agent.post(`/api/challenges/${challenge.id}/submit`, {
    creatorScore,
    acceptorScore,
    screenshot: 'https://example.com/result.png',
  });
  expect(submitted.statusCode).toBe(200);
  return challenge;
}

async function leaderboard(viewer: Player, query: string): Promise<Leaderboard> {
  const response = await viewer.agent.get(`/api/leaderboard?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Leaderboard>();
}

const rowOf = (rows: LeaderboardRow[], player: Player) =>
  rows.find((row) => row.username === player.user.username);

describe('GET /api/players/:username', () => {
  it('shows the record, the games played most and the last results, and no contact data', async () => {
    const alice = await fundedPlayer();
    const bob = await fundedPlayer();
    const game = uniqueGame('Tekken 8');
    const first = await play(alice, bob, { game, amount: 20, creatorScore: 3, acceptorScore: 1 });
    const second = await play(bob, alice, { game, amount: 5, creatorScore: 2, acceptorScore: 0 });
    await play(alice, bob, { game: uniqueGame('Chess'), creatorScore: 1, acceptorScore: 0 });

    const response = await bob.agent.get(`/api/players/${alice.user.username.toUpperCase()}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<PlayerProfile>();
    expect(page.username).toBe(alice.user.username);
    expect(page.record).toMatchObject({ played: 3, won: 2, lost: 1 });
    expect(page.games[0]).toEqual({ game, played: 2, wins: 1 });
    expect(page.results.map((result) => result.challengeId).slice(1)).toEqual([
      second.id,
      first.id,
    ]);
    expect(page.results[1]).toMatchObject({
      game,
      amount: 5,
      won: false,
      score: 0,
      opponentScore: 2,
      opponent: bob.user.username,
    });
    expect(page.results[2]).toMatchObject({ won: true, score: 3, opponentScore: 1, amount: 20 });
    expect(response.body).not.toMatch(/phone|email|balance/i);
  });

  it('answers 404 for an unknown name and for a closed account', async () => {
    const viewer = await fundedPlayer();
    const closed = await fundedPlayer();
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/admin/users/${closed.user.id}` }))
        .statusCode,
    ).toBe(200);

    for (const name of ['nobody_here_at_all', closed.user.username]) {
      const response = await viewer.agent.get(`/api/players/${name}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: PLAYER_MESSAGES.notFound });
    }
  });
});

describe('GET /api/leaderboard', () => {
  it('ranks this week’s players by net winnings and by wins, overall and per game', async () => {
    const winner = await fundedPlayer();
    const loser = await fundedPlayer();
    const game = uniqueGame('Rocket League');
    await play(winner, loser, { game, amount: 100, creatorScore: 5, acceptorScore: 1 });
    await play(loser, winner, { game, amount: 10, creatorScore: 4, acceptorScore: 1 });

    const board = await leaderboard(
      winner,
      `period=week&game=${encodeURIComponent(game.toLowerCase())}`,
    );
    expect(board).toMatchObject({ period: 'week', game, since: periodStart('week', new Date()) });
    // Prize 200 − fee 10 − stake 100 = 90; then a stake of 10 lost. The loser: −100 + 9.
    expect(board.byNet).toEqual([
      { rank: 1, username: winner.user.username, played: 2, wins: 1, net: 80 },
      { rank: 2, username: loser.user.username, played: 2, wins: 1, net: -91 },
    ]);
    expect(board.byWins.map((row) => row.username)).toEqual([
      winner.user.username,
      loser.user.username,
    ]);
    for (const period of ['month', 'all']) {
      expect(rowOf((await leaderboard(winner, `period=${period}`)).byNet, winner)).toMatchObject({
        played: 2,
        net: 80,
      });
    }
  });

  it('takes a result back when it is disputed, and moves it when an admin decides for the other player', async () => {
    const creator = await fundedPlayer();
    const acceptor = await fundedPlayer();
    const game = uniqueGame('Halo Infinite');
    const challenge = await play(creator, acceptor, { game, creatorScore: 3, acceptorScore: 0 });
    const q = `period=all&game=${encodeURIComponent(game)}`;
    expect(rowOf((await leaderboard(creator, q)).byWins, creator)).toMatchObject({ wins: 1 });

    const disputed = await acceptor.agent.post(`/api/challenges/${challenge.id}/dispute`, {
      reason: 'I won 3-0',
    });
    expect(disputed.statusCode).toBe(200);
    expect((await leaderboard(creator, q)).byNet).toEqual([]);

    const decided = await admin.post(`/api/admin/disputes/${challenge.id}/resolve`, {
      outcome: 'acceptor',
      note: 'The video shows the acceptor winning',
    });
    expect(decided.statusCode).toBe(200);
    const board = await leaderboard(creator, q);
    expect(board.byNet).toEqual([
      { rank: 1, username: acceptor.user.username, played: 1, wins: 1, net: 9 },
      { rank: 2, username: creator.user.username, played: 1, wins: 0, net: -10 },
    ]);
  });

  it('leaves out a refunded match and a closed account', async () => {
    const creator = await fundedPlayer();
    const acceptor = await fundedPlayer();
    const game = uniqueGame('Fortnite');
    const refunded = await play(creator, acceptor, { game, creatorScore: 1, acceptorScore: 0 });
    await acceptor.agent.post(`/api/challenges/${refunded.id}/dispute`, { reason: 'Lag' });
    const refund = await admin.post(`/api/admin/disputes/${refunded.id}/resolve`, {
      outcome: 'refund',
      note: 'Nobody could play',
    });
    expect(refund.statusCode).toBe(200);
    const q = `period=all&game=${encodeURIComponent(game)}`;
    expect((await leaderboard(creator, q)).byNet).toEqual([]);

    await play(creator, acceptor, { game, creatorScore: 2, acceptorScore: 0 });
    expect((await leaderboard(creator, q)).byNet).toHaveLength(2);
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/admin/users/${acceptor.user.id}` }))
        .statusCode,
    ).toBe(200);
    expect((await leaderboard(creator, q)).byNet.map((row) => row.username)).toEqual([
      creator.user.username,
    ]);
  });

  it('counts a result in the week and month it was completed in', async () => {
    const creator = await fundedPlayer();
    const acceptor = await fundedPlayer();
    const game = uniqueGame('Street Fighter 6');
    const challenge = await play(creator, acceptor, { game, creatorScore: 2, acceptorScore: 1 });
    const q = (period: string) => `period=${period}&game=${encodeURIComponent(game)}`;
    expect((await leaderboard(creator, q('week'))).byNet).toHaveLength(2);

    // Completed two months ago (as an old result would have been): only all time shows it now.
    await t.database.db.execute(
      sql`update challenges set completed_at = now() - interval '62 days' where id = ${challenge.id}`,
    );
    expect((await leaderboard(creator, q('week'))).byNet).toEqual([]);
    expect((await leaderboard(creator, q('month'))).byNet).toEqual([]);
    expect((await leaderboard(creator, q('all'))).byNet).toHaveLength(2);
  });

  it('refuses an unknown period in the API’s error shape', async () => {
    const viewer = await fundedPlayer();
    const response = await viewer.agent.get('/api/leaderboard?period=year');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: PLAYER_MESSAGES.period,
      fields: { period: PLAYER_MESSAGES.period },
    });
  });
});

describe('periodStart', () => {
  it('starts weeks on Monday and months on the 1st, in UTC', () => {
    const sunday = new Date('2026-11-29T23:30:00Z');
    expect(periodStart('week', sunday)).toBe('2026-11-23');
    expect(periodStart('week', new Date('2026-11-23T00:00:00Z'))).toBe('2026-11-23');
    expect(periodStart('month', sunday)).toBe('2026-11-01');
    expect(periodStart('all', sunday)).toBe('1970-01-01');
  });
});

describe('GET /api/games', () => {
  it('suggests the games players name, most named first, by any part of the name', async () => {
    const creator = await fundedPlayer();
    const rare = uniqueGame('Zelda Speedrun');
    const popular = uniqueGame('Zelda Smash');
    for (const game of [rare, popular, popular.toUpperCase(), popular]) {
      const created = await creator.agent.post('/api/challenges', {
        game,
        amount: 1,
        gamerTag: 'Tag',
        phoneNumber: '+1 555 010 3000',
        console: 'PC',
      });
      expect(created.statusCode).toBe(201);
    }
    const response = await creator.agent.get('/api/games?q=ZELDA%20S');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { name: popular, challenges: 3 },
      { name: rare, challenges: 1 },
    ]);
  });
});
