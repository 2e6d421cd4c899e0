// Two server processes on one PostgreSQL behave as one (issue 8, DESIGN §1 and §6): a session
// made on one is valid on the other, balance and challenge events and voice signalling cross
// between them, and both mail workers together deliver each mail exactly once.
import pg from 'pg';
import { io as connectVoice, type Socket as VoiceSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-server.ts';
import { ADMIN, startApp, type RunningApp } from './harness.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await postgresReachable();
// CI always has PostgreSQL: there a missing server is a failure, not a reason to skip.
if (unreachable && process.env.CI) {
  throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL}: ${unreachable}`);
}
if (unreachable) {
  process.stderr.write(
    `multi-instance test skipped: no PostgreSQL at ${PG_ADMIN_URL} (${unreachable}); ` +
      'set PG_ADMIN_URL to a server where this user may create databases\n',
  );
}

interface Client {
  baseUrl: string;
  cookie: string;
  request(method: string, path: string, body?: unknown): Promise<Response>;
}

function clientOf(baseUrl: string, cookie: string): Client {
  return {
    baseUrl,
    cookie,
    request: (method, path, body) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          cookie,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}

const cookieFrom = (response: Response) => sessionCookieOf(response);

let registered = 0;
async function register(app: RunningApp): Promise<Client & { id: number; username: string }> {
  registered += 1;
  const username = `mi_${process.pid % 10_000}_${registered}`;
  const response = await fetch(`${app.baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password: 'multi-instance',
      phoneNumber: '+1 555 010 1234',
      email: `${username}@example.com`,
      isOver18: true,
    }),
  });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  return { ...clientOf(app.baseUrl, cookieFrom(response)), id, username };
}

/** An account socket that records its messages; `next` waits for one that matches. */
function accountSocket(baseUrl: string, cookie: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie } });
  const messages: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = (predicate: (m: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const check = () => {
        const found = messages.find(predicate);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
    });
  return { socket, opened, next };
}

function voiceSocket(baseUrl: string, player: { cookie: string; id: number }, challengeId: number) {
  return connectVoice(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    query: { challengeId: String(challengeId), userId: String(player.id) },
    extraHeaders: { cookie: player.cookie },
    reconnection: false,
    forceNew: true,
  });
}

const once = <T>(socket: VoiceSocket, event: string) =>
  new Promise<T>((resolve) => socket.once(event, (payload: T) => resolve(payload)));

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * `waitFor` with a deadline: what an event carries across instances must arrive well before
 * the few seconds after which a cache entry would have expired anyway.
 */
async function arrivesWithin<T>(
  ms: number,
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(unreachable !== null)('two instances on one PostgreSQL', () => {
  const databaseName = `skillstake_mi_${process.pid}`;
  const databaseUrl = (() => {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${databaseName}`;
    return url.toString();
  })();
  let admin: pg.Client;
  let database: pg.Client;
  let smtp: SmtpSink;
  let a: RunningApp;
  let b: RunningApp;
  const cleanups: Array<() => void> = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${databaseName}`);
    smtp = await startSmtpSink();
    const env = { DATABASE_URL: databaseUrl, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` };
    // Started together: both migrate (under the advisory lock) and bootstrap the admin at once.
    [a, b] = await Promise.all([startApp(env), startApp(env)]);
    database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
  });

  afterAll(async () => {
    for (const cleanup of cleanups) cleanup();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.end();
    await smtp?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin?.end();
  });

  it(
    'share sessions, events, voice signalling and the mail outbox',
    { timeout: 120_000 },
    async () => {
      // A session made on A is valid on B.
      const alice = await register(a);
      const onB = await fetch(`${b.baseUrl}/api/user`, { headers: { cookie: alice.cookie } });
      expect(onB.status).toBe(200);
      expect(await onB.json()).toMatchObject({ id: alice.id, username: alice.username });
      const bob = await register(b);

      // A balance change made through A's admin API reaches Alice's socket on B.
      const aliceOnB = accountSocket(b.baseUrl, alice.cookie);
      const bobOnB = accountSocket(b.baseUrl, bob.cookie);
      const aliceOnA = accountSocket(a.baseUrl, alice.cookie);
      cleanups.push(() => [aliceOnB, bobOnB, aliceOnA].forEach((s) => s.socket.close()));
      await Promise.all([aliceOnB.opened, bobOnB.opened, aliceOnA.opened]);
      const login = await fetch(`${a.baseUrl}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      expect(login.status).toBe(200);
      const operator = clientOf(a.baseUrl, cookieFrom(login));
      for (const player of [alice, bob]) {
        const credit = await operator.request('POST', `/api/admin/users/${player.id}/balance`, {
          amount: '50',
        });
        expect(credit.status).toBe(200);
      }
      expect(
        await aliceOnB.next((m) => m.type === 'BALANCE_UPDATE' && m.newBalance === 50),
      ).toEqual({
        type: 'BALANCE_UPDATE',
        userId: alice.id,
        newBalance: 50,
        available: 50,
        underReview: 0,
      });

      // A challenge created on A reaches Bob's socket on B.
      const created = await alice.request('POST', '/api/challenges', {
        game: 'Chess',
        amount: 10,
        gamerTag: 'Queen',
        phoneNumber: '+1 555 010 1234',
        console: 'PC',
      });
      expect(created.status).toBe(201);
      const { id: challengeId } = (await created.json()) as { id: number };
      expect(
        await bobOnB.next((m) => m.type === 'CHALLENGE_UPDATED' && m.challengeId === challengeId),
      ).toEqual({ type: 'CHALLENGE_UPDATED', challengeId, status: 'open' });

      // Bob accepts on B; Alice, on A, hears of it.
      const accepted = await clientOf(b.baseUrl, bob.cookie).request(
        'POST',
        `/api/challenges/${challengeId}/accept`,
      );
      expect(accepted.status).toBe(200);
      expect(
        await aliceOnA.next(
          (m) =>
            m.type === 'CHALLENGE_UPDATED' &&
            m.challengeId === challengeId &&
            m.status === 'accepted',
        ),
      ).toBeTruthy();

      // Voice signalling between Alice on A and Bob on B, both ways.
      const aliceVoice = voiceSocket(a.baseUrl, alice, challengeId);
      cleanups.push(() => aliceVoice.disconnect());
      await once(aliceVoice, 'connect');
      const bobJoined = once<number>(aliceVoice, 'user-joined');
      const bobVoice = voiceSocket(b.baseUrl, bob, challengeId);
      cleanups.push(() => bobVoice.disconnect());
      await once(bobVoice, 'connect');
      expect(await bobJoined).toBe(bob.id);
      const offer = { type: 'offer', sdp: 'v=0 from alice' };
      const atBob = once<unknown>(bobVoice, 'signal');
      aliceVoice.emit('signal', { userId: alice.id, signal: offer });
      expect(await atBob).toEqual({ userId: alice.id, signal: offer });
      const answer = { type: 'answer', sdp: 'v=0 from bob' };
      const atAlice = once<unknown>(aliceVoice, 'signal');
      bobVoice.emit('signal', { userId: bob.id, signal: answer });
      expect(await atAlice).toEqual({ userId: bob.id, signal: answer });

      // Alice reports the result on A: the settlement mails both players (Bob's acceptance has
      // mailed Alice already). Fifty more mails wait in the outbox, so the two workers (one per
      // instance) compete for more than one batch.
      const submitted = await alice.request('POST', `/api/challenges/${challengeId}/submit`, {
        creatorScore: 3,
        acceptorScore: 1,
        screenshot: 'https://example.com/result.png',
      });
      expect(submitted.status).toBe(200);
      await database.query(
        `insert into outbox (dedupe_key, recipient, subject, body)
       select 'multi-instance:' || g, 'player' || g || '@example.com', 'Hello', 'Body'
       from generate_series(1, 50) g`,
      );
      // Registration mailed each player a verification link at once: two more.
      const expected = 55;
      const rows = await waitFor(
        async () =>
          (
            await database.query<{ dedupe_key: string; attempts: number; sent: boolean }>(
              'select dedupe_key, attempts, sent_at is not null as sent from outbox',
            )
          ).rows,
        (all) => all.length === expected && all.every((row) => row.sent),
      );
      // Claimed once each (a second claim would have counted a second attempt), and each arrived
      // at the SMTP server exactly once.
      expect(rows.filter((row) => row.attempts !== 1)).toEqual([]);
      const arrived = new Map<string, number>();
      for (const { messageId } of smtp.deliveries) {
        arrived.set(messageId, (arrived.get(messageId) ?? 0) + 1);
      }
      expect(arrived.size).toBe(expected);
      expect([...arrived.values()].every((count) => count === 1)).toBe(true);
      expect(
        [...arrived.keys()].filter((id) => id.startsWith('<challenge-result:')).sort(),
      ).toEqual(
        [
          `<challenge-result:${challengeId}:${alice.id}@skillstake>`,
          `<challenge-result:${challengeId}:${bob.id}@skillstake>`,
        ].sort(),
      );
      expect(arrived.get(`<notification:challenge-accepted:${challengeId}@skillstake>`)).toBe(1);

      // Each instance keeps pages of open challenges and checked sessions in memory: a new
      // challenge on A is on the page B serves, and a logout on A ends the session on B, at once
      // (the caches' time to live is 5 s for pages and 10 s for sessions).
      const openOnB = async () => {
        const page = await bob.request('GET', '/api/challenges?status=open');
        return ((await page.json()) as Array<{ id: number }>).map((challenge) => challenge.id);
      };
      const before = await openOnB();
      const another = await alice.request('POST', '/api/challenges', {
        game: 'Chess',
        amount: 1,
        gamerTag: 'alice_again',
        phoneNumber: '+1 555 010 1234',
        console: 'PC',
      });
      expect(another.status).toBe(201);
      const { id: anotherId } = (await another.json()) as { id: number };
      expect(await arrivesWithin(2_000, openOnB, (ids) => ids[0] === anotherId)).toEqual([
        anotherId,
        ...before,
      ]);

      const aliceOnBUser = () =>
        fetch(`${b.baseUrl}/api/user`, { headers: { cookie: alice.cookie } }).then(
          (response) => response.status,
        );
      expect(await aliceOnBUser()).toBe(200);
      expect((await alice.request('POST', '/api/logout')).status).toBe(204);
      expect(await arrivesWithin(2_000, aliceOnBUser, (status) => status === 401)).toBe(401);
    },
  );
});
