import type { AddressInfo } from 'node:net';
import { io as connectClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { VOICE_REFUSALS } from '#shared/contracts/voice.ts';
import { createAppContext } from '#server/context.ts';
import { tournaments } from '#server/db/schema/tournaments.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { withTwoInstances } from '#tests/helpers/two-instances.ts';
import { fund } from '#tests/helpers/money.ts';
import { createTestApp, signUp, type TestApp } from '#tests/helpers/test-app.ts';
import { runTournamentPass } from '../tournaments/worker.ts';

type Player = Awaited<ReturnType<typeof signUp>>;

let t: TestApp;
let url: string;
const sockets: Socket[] = [];

async function listen(app: TestApp['app']): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

function open(
  baseUrl: string,
  options: {
    player?: Player;
    challengeId?: number;
    tournamentMatchId?: number;
    userId: number;
    origin?: string;
  },
): Socket {
  const extraHeaders: Record<string, string> = {};
  if (options.player) extraHeaders.cookie = `sid=${options.player.agent.sessionCookie}`;
  if (options.origin) extraHeaders.origin = options.origin;
  const socket = connectClient(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    query: {
      ...(options.challengeId === undefined ? {} : { challengeId: String(options.challengeId) }),
      ...(options.tournamentMatchId === undefined
        ? {}
        : { tournamentMatchId: String(options.tournamentMatchId) }),
      userId: String(options.userId),
    },
    extraHeaders,
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return socket;
}

function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}

function refusal(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected but should have been refused')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

function next<T>(socket: Socket, event: string): Promise<T> {
  return new Promise((resolve) => socket.once(event, (payload: T) => resolve(payload)));
}

async function acceptedChallenge(app: TestApp['app'], database: TestApp['database']) {
  const creator = await signUp(app);
  const acceptor = await signUp(app);
  await fund(database, creator.user.id, 1000n);
  await fund(database, acceptor.user.id, 1000n);
  const { id } = (
    await creator.agent.post('/api/challenges', {
      game: 'Tekken 8',
      amount: 5,
      gamerTag: 'Fist',
      phoneNumber: '5550106000',
      console: 'PlayStation',
    })
  ).json();
  await acceptor.agent.post(`/api/challenges/${id}/accept`);
  return { creator, acceptor, id: id as number };
}

beforeAll(async () => {
  t = await createTestApp();
  url = await listen(t.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.close();
});

/** A tournament of two players (byes allowed), started: its one match is being played. */
async function tournamentMatch() {
  const { agent: admin } = await signInAdmin(t);
  const players = [await signUp(t.app), await signUp(t.app)];
  for (const player of players) await fund(t.database, player.user.id, 1000n);
  const created = await admin.post('/api/admin/tournaments', {
    game: 'Tekken 8',
    console: 'PlayStation',
    entryFee: 5,
    size: 4,
    allowByes: true,
    startsAt: new Date(Date.now() + 3_600_000).toISOString(),
  });
  const { id } = created.json<{ id: number }>();
  for (const player of players) await player.agent.post(`/api/tournaments/${id}/join`);
  await t.database.db
    .update(tournaments)
    .set({ startsAt: new Date(Date.now() - 1000) })
    .where(eq(tournaments.id, id));
  await runTournamentPass(createAppContext({ env: t.env, database: t.database, bus: t.bus }));
  const detail = (await admin.get(`/api/tournaments/${id}`)).json<{
    matches: Array<{ id: number }>;
  }>();
  const matchId = detail.matches[0]?.id ?? 0;
  return { id, matchId, players: players as [Player, Player] };
}

describe('voice for a tournament match (docs/tournaments.md)', () => {
  it('connects its two players while it is played, and nobody else', async () => {
    const { id, matchId, players } = await tournamentMatch();
    const [a, b] = players;
    const first = open(url, { player: a, tournamentMatchId: matchId, userId: a.user.id });
    await connected(first);
    const joined = next<number>(first, 'user-joined');
    await connected(open(url, { player: b, tournamentMatchId: matchId, userId: b.user.id }));
    expect(await joined).toBe(b.user.id);
    const outsider = await signUp(t.app);
    expect(
      await refusal(
        open(url, { player: outsider, tournamentMatchId: matchId, userId: outsider.user.id }),
      ),
    ).toBe(VOICE_REFUSALS.notParticipant);
    expect(
      await refusal(
        open(url, { player: a, challengeId: 1, tournamentMatchId: matchId, userId: a.user.id }),
      ),
    ).toBe(VOICE_REFUSALS.badQuery);
    // Once a result is reported the match is no longer being played: the call ends.
    const ended = next<string>(first, 'disconnect');
    await a.agent.post(`/api/tournaments/${id}/matches/${matchId}/submit`, {
      creatorScore: 2,
      acceptorScore: 1,
      screenshot: 'https://example.com/final.png',
    });
    await ended;
    expect(
      await refusal(open(url, { player: a, tournamentMatchId: matchId, userId: a.user.id })),
    ).toBe(VOICE_REFUSALS.matchNotPlaying);
  });
});

describe('voice signalling admission', () => {
  it('refuses no session, a forged userId, a non-participant and a foreign origin', async () => {
    const { creator, id } = await acceptedChallenge(t.app, t.database);
    const outsider = await signUp(t.app);
    expect(await refusal(open(url, { challengeId: id, userId: creator.user.id }))).toBe(
      VOICE_REFUSALS.session,
    );
    expect(
      await refusal(open(url, { player: outsider, challengeId: id, userId: creator.user.id })),
    ).toBe(VOICE_REFUSALS.wrongUser);
    expect(
      await refusal(open(url, { player: outsider, challengeId: id, userId: outsider.user.id })),
    ).toBe(VOICE_REFUSALS.notParticipant);
    expect(
      await refusal(
        open(url, {
          player: creator,
          challengeId: id,
          userId: creator.user.id,
          origin: 'https://evil.example',
        }),
      ),
    ).toBe(VOICE_REFUSALS.origin);
    expect(
      await refusal(open(url, { player: creator, challengeId: 999_999, userId: creator.user.id })),
    ).toBe(VOICE_REFUSALS.notParticipant);
  });

  it('refuses an open and a completed challenge', async () => {
    const creator = await signUp(t.app);
    await fund(t.database, creator.user.id, 500n);
    const { id: openId } = (
      await creator.agent.post('/api/challenges', {
        game: 'Chess',
        amount: 1,
        gamerTag: 'Pawn',
        phoneNumber: '5550106001',
        console: 'PC',
      })
    ).json();
    expect(
      await refusal(open(url, { player: creator, challengeId: openId, userId: creator.user.id })),
    ).toBe(VOICE_REFUSALS.notAccepted);

    const done = await acceptedChallenge(t.app, t.database);
    await done.creator.agent.post(`/api/challenges/${done.id}/submit`, {
      creatorScore: 1,
      acceptorScore: 0,
      screenshot: 'https://example.com/s.png',
    });
    expect(
      await refusal(
        open(url, { player: done.creator, challengeId: done.id, userId: done.creator.user.id }),
      ),
    ).toBe(VOICE_REFUSALS.notAccepted);
  });
});

describe('voice handshakes the database cannot answer (issue 35)', () => {
  it('refuses ids past PostgreSQL integer as a bad query, and still admits the players', async () => {
    const { creator, id } = await acceptedChallenge(t.app, t.database);
    for (const huge of ['99999999999', '2147483648', '1e309']) {
      for (const key of ['challengeId', 'tournamentMatchId'] as const) {
        const socket = connectClient(url, {
          path: '/socket.io',
          transports: ['websocket'],
          query: { [key]: huge, userId: String(creator.user.id) },
          extraHeaders: { cookie: `sid=${creator.agent.sessionCookie}` },
          reconnection: false,
          forceNew: true,
        });
        sockets.push(socket);
        expect(await refusal(socket)).toBe(VOICE_REFUSALS.badQuery);
      }
      expect(
        await refusal(open(url, { player: creator, challengeId: id, userId: Number(huge) })),
      ).toBe(VOICE_REFUSALS.badQuery);
    }
    await connected(open(url, { player: creator, challengeId: id, userId: creator.user.id }));
  });

  it('refuses a handshake whose check fails in the database, instead of leaving it unhandled', async () => {
    const { creator, id } = await acceptedChallenge(t.app, t.database);
    // The challenge cannot be read: every query on it fails, as with a database gone away.
    await t.database.db.execute(sql`alter table challenges rename to challenges_away`);
    try {
      expect(
        await refusal(open(url, { player: creator, challengeId: id, userId: creator.user.id })),
      ).toBe(VOICE_REFUSALS.unavailable);
    } finally {
      await t.database.db.execute(sql`alter table challenges_away rename to challenges`);
    }
    await connected(open(url, { player: creator, challengeId: id, userId: creator.user.id }));
  });
});

describe('voice signalling relay', () => {
  it('announces each player to the other and relays signals only to the other player', async () => {
    const { creator, acceptor, id } = await acceptedChallenge(t.app, t.database);
    const other = await acceptedChallenge(t.app, t.database);

    const a = open(url, { player: creator, challengeId: id, userId: creator.user.id });
    await connected(a);
    const joinedA = next<number>(a, 'user-joined');
    const b = open(url, { player: acceptor, challengeId: id, userId: acceptor.user.id });
    const joinedB = next<number>(b, 'user-joined');
    await connected(b);
    expect(await joinedA).toBe(acceptor.user.id);
    expect(await joinedB).toBe(creator.user.id);

    const bystander = open(url, {
      player: other.creator,
      challengeId: other.id,
      userId: other.creator.user.id,
    });
    await connected(bystander);
    const overheard: unknown[] = [];
    bystander.on('signal', (payload) => overheard.push(payload));
    const echoed: unknown[] = [];
    a.on('signal', (payload) => echoed.push(payload));

    const received = next<{ userId: number; signal: unknown }>(b, 'signal');
    a.emit('signal', { userId: creator.user.id, signal: { type: 'offer', sdp: 'v=0' } });
    expect(await received).toEqual({
      userId: creator.user.id,
      signal: { type: 'offer', sdp: 'v=0' },
    });

    // A signal claiming to be from someone else, or too large, is dropped.
    b.emit('signal', { userId: creator.user.id, signal: { type: 'answer' } });
    b.emit('signal', { userId: acceptor.user.id, signal: { blob: 'x'.repeat(20_000) } });
    const answer = next<{ userId: number; signal: unknown }>(a, 'signal');
    b.emit('signal', { userId: acceptor.user.id, signal: { type: 'answer', sdp: 'v=0' } });
    expect(await answer).toEqual({
      userId: acceptor.user.id,
      signal: { type: 'answer', sdp: 'v=0' },
    });
    expect(echoed).toHaveLength(1);
    expect(overheard).toEqual([]);

    const left = next<number>(a, 'user-left');
    b.disconnect();
    expect(await left).toBe(acceptor.user.id);
  });

  it('disconnects the players when the challenge is completed', async () => {
    const { creator, acceptor, id } = await acceptedChallenge(t.app, t.database);
    const a = open(url, { player: creator, challengeId: id, userId: creator.user.id });
    await connected(a);
    const dropped = next<string>(a, 'disconnect');
    await acceptor.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 0,
      acceptorScore: 1,
      screenshot: 'https://example.com/s.png',
    });
    expect(await dropped).toBe('io server disconnect');
  });

  it('disconnects a socket whose session logs out', async () => {
    const { creator, id } = await acceptedChallenge(t.app, t.database);
    const a = open(url, { player: creator, challengeId: id, userId: creator.user.id });
    await connected(a);
    const dropped = next<string>(a, 'disconnect');
    await creator.agent.post('/api/logout');
    expect(await dropped).toBe('io server disconnect');
  });

  it('disconnects a socket that floods signals', async () => {
    const { creator, acceptor, id } = await acceptedChallenge(t.app, t.database);
    const a = open(url, { player: creator, challengeId: id, userId: creator.user.id });
    await connected(a);
    const b = open(url, { player: acceptor, challengeId: id, userId: acceptor.user.id });
    await connected(b);
    const dropped = next<string>(a, 'disconnect');
    for (let i = 0; i < 150; i += 1) a.emit('signal', { userId: creator.user.id, signal: { i } });
    expect(await dropped).toBe('io server disconnect');
  });
});

describe.runIf(onPostgres)('voice signalling across instances', () => {
  it('relays between two instances on one PostgreSQL', async () => {
    await withTwoInstances(async (a, b, database) => {
      const urlA = await listen(a.app);
      const urlB = await listen(b.app);
      const { creator, acceptor, id } = await acceptedChallenge(a.app, database);
      const onA = open(urlA, { player: creator, challengeId: id, userId: creator.user.id });
      await connected(onA);
      const joined = next<number>(onA, 'user-joined');
      const onB = open(urlB, { player: acceptor, challengeId: id, userId: acceptor.user.id });
      await connected(onB);
      expect(await joined).toBe(acceptor.user.id);
      const received = next<{ userId: number }>(onA, 'signal');
      onB.emit('signal', { userId: acceptor.user.id, signal: { type: 'answer' } });
      expect(await received).toEqual({ userId: acceptor.user.id, signal: { type: 'answer' } });
      onA.disconnect();
      onB.disconnect();
    });
  });
});

describe.runIf(onPostgres)('voice signalling shutdown', () => {
  it('closes while the adapter is still opening its connection, every time', async () => {
    const database = await openTestDatabase();
    try {
      // The adapter starts opening its LISTEN connection in the background when the app is
      // built; closing at once lands in the middle of that every time.
      for (let round = 0; round < 10; round += 1) {
        const t = await createTestApp({ database });
        await t.close();
      }
      // Nothing of the ten apps is left connected: only the test's own pool remains.
      const { rows } = await database.pool!.query<{ count: number }>(
        'select count(*)::int as count from pg_stat_activity where datname = current_database()',
      );
      expect(rows[0]!.count).toBe(database.pool!.totalCount);
    } finally {
      await database.close();
    }
  });
});
