import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { io as connectVoice, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { buildApp } from '#server/app.ts';
import { queryRows, type DatabaseHandle } from '#server/db/client.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';
import { parseEnv } from '#server/env.ts';
import { openTestDatabase } from '#tests/helpers/database.ts';
import { multipart, sampleFile } from '#tests/helpers/multipart.ts';
import {
  Agent,
  expectLedgerHealthy,
  GENEROUS_RATE_LIMITS,
  markEmailVerified,
  type TestApp,
  stillClock,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '#server/features/admin/testing/admin-agent.ts';
import { fund } from '#tests/helpers/money.ts';
import { createSettledTestApp } from './testing/world.ts';
import { loggerOptions } from '../plugins/request-log.ts';

/**
 * Operations (issue 9): the Prometheus endpoint and what it counts, and structured logs that
 * never carry a password, a session token or full card or wallet data.
 */

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let database: DatabaseHandle;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** One sample of the exposition: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// Prometheus reads NaN whatever its case; prom-client writes `Nan` for a gauge not yet measured.
const SAMPLE_LINE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|\+Inf|NaN|Nan))$/;

/**
 * Parses the text format strictly: every line must be empty, a comment or a well-formed sample.
 */
function parseExposition(text: string): Sample[] {
  expect(text.endsWith('\n')).toBe(true);
  const samples: Sample[] = [];
  for (const line of text.trimEnd().split('\n')) {
    // The format ignores empty lines (prom-client puts one between metric families).
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = pair[2] ?? '';
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function scrape(app: FastifyInstance): Promise<Sample[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(response.body);
}

const challengeBody = {
  game: 'Rocket League',
  amount: 10,
  gamerTag: 'Octane',
  phoneNumber: '+1 555 010 4000',
  console: 'PC',
};

async function fundedPlayer(app: FastifyInstance, username: string, password: string) {
  const agent = new Agent(app);
  const response = await agent.post('/api/register', {
    username,
    password,
    phoneNumber: '+1 555 010 4000',
    email: `${username}@example.com`,
    isOver18: true,
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  const id = response.json<{ id: number }>().id;
  await fund(database, id, 100_000n);
  return { agent, id };
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const t = await createSettledTestApp({ database });
    try {
      const response = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer anything-at-all-here' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('skillstake_');
    } finally {
      await t.close();
    }
  });

  it('wants the token as a bearer credential', async () => {
    const t = await createSettledTestApp({ database, env: { METRICS_TOKEN } });
    try {
      for (const authorization of [
        undefined,
        'Bearer wrong-token-0123456789abcdef',
        `Bearer ${METRICS_TOKEN}x`,
        `Basic ${METRICS_TOKEN}`,
        METRICS_TOKEN,
      ]) {
        const response = await t.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: authorization ? { authorization } : {},
        });
        expect(response.statusCode, authorization).toBe(401);
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expect(response.body).not.toContain('skillstake_');
      }
      await scrape(t.app);
    } finally {
      await t.close();
    }
  });

  it('counts requests, latencies, sockets, ledger transfers and failed logins', async () => {
    const t = await createSettledTestApp({ database, env: { METRICS_TOKEN } });
    const sockets: Array<WebSocket | Socket> = [];
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const host = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const before = await scrape(t.app);
      // The labelled series exist at 0 before anything happened, so rate() sees the first one.
      for (const [name, labels] of [
        ['skillstake_ledger_transfers_posted_total', { kind: 'stake' }],
        ['skillstake_ledger_transfers_posted_total', { kind: 'deposit' }],
        ['skillstake_login_failures_total', { reason: 'invalid_credentials' }],
        ['skillstake_login_failures_total', { reason: 'rate_limited' }],
      ] as const) {
        expect(
          before.some(
            (sample) =>
              sample.name === name &&
              Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
          ),
          `${name} ${JSON.stringify(labels)}`,
        ).toBe(true);
      }
      expect(valueOf(before, 'skillstake_account_sockets_open')).toBe(0);
      expect(valueOf(before, 'skillstake_voice_sockets_open')).toBe(0);
      expect(valueOf(before, 'skillstake_ledger_transfers_posted_total', { kind: 'stake' })).toBe(
        0,
      );

      const creator = await fundedPlayer(t.app, 'metrics_creator', 'creator-password');
      const acceptor = await fundedPlayer(t.app, 'metrics_acceptor', 'acceptor-password');
      for (let i = 0; i < 3; i += 1) await creator.agent.get('/api/user');
      await t.app.inject({ method: 'GET', url: '/api/nowhere' });

      const { id } = (await creator.agent.post('/api/challenges', challengeBody)).json();
      await acceptor.agent.post(`/api/challenges/${id}/accept`);
      await creator.agent.post(`/api/challenges/${id}/submit`, {
        creatorScore: 2,
        acceptorScore: 1,
        screenshot: 'https://example.com/final.png',
      });
      // A card deposit confirmed twice: the second call replays and posts nothing.
      const intent = (
        await creator.agent.post('/api/create-payment-intent', { amount: 25 })
      ).json();
      await creator.agent.post('/api/sandbox/card/confirm', {
        clientSecret: intent.clientSecret,
        cardNumber: SANDBOX_TEST_CARDS.success,
      });
      await creator.agent.post('/api/confirm-payment', { paymentIntentId: intent.paymentIntentId });

      await new Agent(t.app).post('/api/login', {
        username: 'metrics_creator',
        password: 'not-the-password',
      });
      await new Agent(t.app).post('/api/login', { username: 'nobody_here', password: 'whatever' });

      const cookie = (agent: Agent) => `sid=${agent.sessionCookie}`;
      const ws = new WebSocket(`ws://${host}/ws`, { headers: { cookie: cookie(creator.agent) } });
      sockets.push(ws);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const rematch = (await creator.agent.post('/api/challenges', challengeBody)).json();
      await acceptor.agent.post(`/api/challenges/${rematch.id}/accept`);
      for (const [player, agent] of [
        [creator, creator.agent],
        [acceptor, acceptor.agent],
      ] as const) {
        const voice = connectVoice(`http://${host}`, {
          path: '/socket.io',
          transports: ['websocket'],
          query: { challengeId: String(rematch.id), userId: String(player.id) },
          extraHeaders: { cookie: cookie(agent) },
          reconnection: false,
          forceNew: true,
        });
        sockets.push(voice);
        await new Promise((resolve, reject) =>
          voice.once('connect', () => resolve(undefined)).once('connect_error', reject),
        );
      }

      const after = await scrape(t.app);
      expect(
        valueOf(after, 'skillstake_http_requests_total', {
          route: '/api/user',
          method: 'GET',
          status: '200',
        }),
      ).toBe(3);
      expect(
        valueOf(after, 'skillstake_http_requests_total', { route: 'unmatched', status: '404' }),
      ).toBe(1);
      expect(
        valueOf(after, 'skillstake_http_requests_total', {
          route: '/api/challenges/:id/accept',
          status: '200',
        }),
      ).toBe(2);
      // The histogram: cumulative buckets ending in +Inf, which equals the count.
      const buckets = after.filter(
        (sample) =>
          sample.name === 'skillstake_http_request_duration_seconds_bucket' &&
          sample.labels.route === '/api/user',
      );
      expect(buckets.at(-1)?.labels.le).toBe('+Inf');
      expect(buckets.at(-1)?.value).toBe(3);
      for (let i = 1; i < buckets.length; i += 1) {
        expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
      }
      expect(
        valueOf(after, 'skillstake_http_request_duration_seconds_count', { route: '/api/user' }),
      ).toBe(3);
      expect(
        valueOf(after, 'skillstake_http_request_duration_seconds_sum', { route: '/api/user' }),
      ).toBeGreaterThan(0);

      const transfers = (kind: string) =>
        valueOf(after, 'skillstake_ledger_transfers_posted_total', { kind }) -
        valueOf(before, 'skillstake_ledger_transfers_posted_total', { kind });
      // fund() posts outside the app; these are the app's own transfers.
      expect(transfers('stake')).toBe(4);
      expect(transfers('settlement')).toBe(1);
      expect(transfers('deposit')).toBe(1);
      expect(
        valueOf(after, 'skillstake_login_failures_total', { reason: 'invalid_credentials' }),
      ).toBe(2);
      expect(valueOf(after, 'skillstake_account_sockets_open')).toBe(1);
      expect(valueOf(after, 'skillstake_voice_sockets_open')).toBe(2);
      // The process's own metrics (prom-client's defaults): memory, CPU time, the event loop.
      expect(valueOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(valueOf(after, 'nodejs_heap_used_bytes')).toBeGreaterThan(0);
      expect(valueOf(after, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(after.some((sample) => sample.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);

      for (const socket of sockets) {
        if (socket instanceof WebSocket) socket.close();
        else socket.disconnect();
      }
      await expect
        .poll(async () => {
          const samples = await scrape(t.app);
          return [
            valueOf(samples, 'skillstake_account_sockets_open'),
            valueOf(samples, 'skillstake_voice_sockets_open'),
          ];
        })
        .toEqual([0, 0]);
      await expectLedgerHealthy(database);
    } finally {
      for (const socket of sockets) {
        if (socket instanceof WebSocket) socket.terminate();
        else socket.disconnect();
      }
      await t.close();
    }
  });

  it('counts logins refused by the rate limit apart from wrong passwords', async () => {
    const t = await createSettledTestApp({
      database,
      clock: stillClock(),
      env: { METRICS_TOKEN },
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        loginPerUsername: { name: 'login:user:metrics', limit: 1, windowMs: 60_000 },
      },
    });
    try {
      for (let i = 0; i < 3; i += 1) {
        await new Agent(t.app).post('/api/login', { username: 'metrics_x', password: 'nope-nope' });
      }
      const samples = await scrape(t.app);
      expect(
        valueOf(samples, 'skillstake_login_failures_total', { reason: 'invalid_credentials' }),
      ).toBe(1);
      expect(valueOf(samples, 'skillstake_login_failures_total', { reason: 'rate_limited' })).toBe(
        2,
      );
    } finally {
      await t.close();
    }
  });
});

describe('structured logs', () => {
  it('never contain a password, a session token, a card number or a wallet address', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const env = parseEnv({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'skillstake-logs-')),
      LOG_LEVEL: 'trace',
      METRICS_TOKEN,
      // The payout below is about what its log lines carry; its identity rule has its own tests.
      KYC_REQUIRED_FOR_PAYOUT: 'false',
    });
    // The production logger settings, at the chattiest level, writing into memory.
    const bus = createLocalBus();
    const app = await buildApp({
      env,
      database,
      bus,
      serveClient: false,
      rateLimits: GENEROUS_RATE_LIMITS,
      logger: { ...(loggerOptions(env) as object), stream },
    });
    await app.ready();
    const t: TestApp = { app, database, bus, env, close: () => app.close() };
    const secrets: string[] = [METRICS_TOKEN];
    try {
      const password = 'Log-Secret-Password-1';
      const creator = await fundedPlayer(app, 'logs_creator', password);
      const acceptor = await fundedPlayer(app, 'logs_acceptor', 'Log-Secret-Password-2');
      secrets.push(password, 'Log-Secret-Password-2');

      const login = await new Agent(app).post('/api/login', { username: 'logs_creator', password });
      secrets.push(login.cookies.find((c) => c.name === 'sid')!.value);
      await new Agent(app).post('/api/login', {
        username: 'logs_creator',
        password: 'Log-Wrong-Password-3',
      });
      secrets.push('Log-Wrong-Password-3');
      secrets.push(creator.agent.sessionCookie!, acceptor.agent.sessionCookie!);

      // A card deposit: the card number and the client secret.
      const intent = (
        await creator.agent.post('/api/create-payment-intent', { amount: 30 })
      ).json();
      secrets.push(intent.clientSecret);
      await creator.agent.post('/api/sandbox/card/confirm', {
        clientSecret: intent.clientSecret,
        cardNumber: SANDBOX_TEST_CARDS.success,
      });
      await creator.agent.post('/api/sandbox/card/confirm', {
        clientSecret: intent.clientSecret,
        cardNumber: SANDBOX_TEST_CARDS.declined,
      });
      secrets.push(
        SANDBOX_TEST_CARDS.success,
        SANDBOX_TEST_CARDS.success.replaceAll(' ', ''),
        SANDBOX_TEST_CARDS.declined.replaceAll(' ', ''),
      );
      await creator.agent.post('/api/confirm-payment', { paymentIntentId: intent.paymentIntentId });

      // A crypto deposit's address, and a payout to the player's own wallet.
      const crypto = (
        await creator.agent.post('/api/create-crypto-payment', { amount: 30 })
      ).json();
      secrets.push(crypto.paymentAddress);
      const wallet = 'bc1qlogsecretwallet7n4k2m9x0q8w3e5r6t7y8u9i0p';
      secrets.push(wallet);
      const payout = await creator.agent.post('/api/payouts', {
        amount: 5,
        paymentMethod: 'crypto',
        paymentDetails: `BTC ${wallet}`,
        phoneNumber: '+1 555 010 4000',
      });
      const admin = await signInAdmin(t);
      secrets.push(admin.agent.sessionCookie!, 'admin-password');
      await admin.agent.post(`/api/admin/payouts/${payout.json().payout.id}/complete`, {
        note: `sent to ${wallet}`,
      });

      // A match, an upload, an e-mail change, a bad request, the metrics, a logout.
      const { id } = (await creator.agent.post('/api/challenges', challengeBody)).json();
      await acceptor.agent.post(`/api/challenges/${id}/accept`);
      await creator.agent.request({
        method: 'POST',
        url: `/api/challenges/${id}/upload-screenshot`,
        ...multipart('screenshot', 'win.png', 'image/png', sampleFile('png')),
      });
      await creator.agent.post(`/api/challenges/${id}/submit`, {
        creatorScore: 3,
        acceptorScore: 0,
        screenshot: 'https://example.com/log.png',
      });
      await creator.agent.post('/api/user/update-email', { email: 'new-address@example.com' });
      await creator.agent.post('/api/register', { username: 'x', password });

      // Account security: a new password, a mailed link's token, a two-factor secret, its
      // recovery codes and a sign-in code.
      await creator.agent.post('/api/user/password', {
        currentPassword: password,
        newPassword: 'Log-Secret-Password-4',
      });
      secrets.push('Log-Secret-Password-4');
      await markEmailVerified(database, creator.id);
      await new Agent(app).post('/api/password-reset', { username: 'logs_creator' });
      let resetToken: string | undefined;
      await expect
        .poll(async () => {
          const [row] = await queryRows<{ body: string }>(
            database.db,
            sql`select body from outbox where dedupe_key like 'password-reset:%' limit 1`,
          );
          resetToken = /token=([\w%-]+)/.exec(row?.body ?? '')?.[1];
          return resetToken;
        })
        .toBeDefined();
      secrets.push(resetToken!);
      // The link's page, as a browser opens it: its URL is logged, its token must not be.
      await app.inject({ method: 'GET', url: `/reset-password?token=${resetToken!}` });
      await new Agent(app).post('/api/password-reset/complete', {
        token: decodeURIComponent(resetToken!),
        newPassword: 'Log-Secret-Password-5',
      });
      secrets.push('Log-Secret-Password-5');
      const setup = (
        await acceptor.agent.post('/api/user/2fa/setup', { password: 'Log-Secret-Password-2' })
      ).json<{ secret: string }>();
      secrets.push(setup.secret);
      const code = new TOTP({ secret: Secret.fromBase32(setup.secret) }).generate();
      const enabled = await acceptor.agent.post('/api/user/2fa/enable', { code });
      secrets.push(...enabled.json<{ recoveryCodes: string[] }>().recoveryCodes);
      await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      await creator.agent.post('/api/logout');

      const output = lines.join('');
      // The flow was logged (requests, the failed login), so the absence below means something.
      expect(output).toContain('"url":"/api/login"');
      expect(output).toContain('login failed');
      // One line per answered request, with its request, status and time; every line of a
      // request carries its id (added when a line is written, not when the request begins).
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      const refusal = parsed.find((line) => line.msg === 'login failed');
      expect(refusal?.reqId).toMatch(/^req-/);
      const ofRefusal = parsed.filter((line) => line.reqId === refusal?.reqId);
      expect(ofRefusal.map((line) => line.msg)).toEqual(['login failed', 'request completed']);
      expect(ofRefusal[1]).toMatchObject({
        req: { method: 'POST', url: '/api/login' },
        res: { statusCode: 401 },
        responseTime: expect.any(Number),
      });
      expect(parsed.some((line) => line.msg === 'incoming request')).toBe(false);
      expect(lines.length).toBeGreaterThan(30);
      for (const secret of secrets)
        expect(output, 'a secret reached the logs').not.toContain(secret);
      await expectLedgerHealthy(database);
    } finally {
      await t.close();
    }
  });
});
