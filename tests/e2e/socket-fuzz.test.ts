import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { VOICE_REFUSALS } from '#shared/contracts/voice.ts';
import { creditPlayer, startApp, type RunningApp } from './harness.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

/**
 * Malformed socket traffic against the built server in a process of its own (issue 35): one
 * voice handshake with an id past PostgreSQL's integer stopped the whole process, which a test
 * through `inject` cannot see. fast-check sends both sockets handshakes with every query field
 * missing, repeated, out of range or odd, with and without a session and a right origin, then
 * raw frames: socket.io packets with odd payloads, text that is no packet at all, binary, JSON
 * too deep or too large. After each one the process must still be running and answering, and
 * its log must name no rejection that nothing handled.
 */

// Runs per socket; FUZZ_SOCKET_RUNS=2000 searches harder.
const RUNS = Number(process.env.FUZZ_SOCKET_RUNS ?? 120);
const FRAME_TIMEOUT_MS = 5_000;

let app: RunningApp;
let origin: string;
const ids = { player: 0, opponent: 0, challenge: 0 };
let cookie = '';

async function register(username: string): Promise<{ id: number; cookie: string }> {
  const response = await fetch(`${origin}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      username,
      password: 'fuzz-password',
      phoneNumber: '5550106000',
      isOver18: true,
    }),
  });
  if (response.status !== 201) throw new Error(`register: ${await response.text()}`);
  const sid = sessionCookieOf(response);
  return { id: ((await response.json()) as { id: number }).id, cookie: sid };
}

async function call(path: string, sessionCookie: string, body?: object): Promise<unknown> {
  const response = await fetch(`${origin}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { cookie: sessionCookie, origin, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

beforeAll(async () => {
  app = await startApp();
  origin = app.baseUrl;
  const stamp = `${process.pid % 10_000}`;
  const player = await register(`fuzz_a_${stamp}`);
  const opponent = await register(`fuzz_b_${stamp}`);
  cookie = player.cookie;
  ids.player = player.id;
  ids.opponent = opponent.id;
  await creditPlayer(origin, `fuzz_a_${stamp}`, '50');
  await creditPlayer(origin, `fuzz_b_${stamp}`, '50');
  const created = (await call('/api/challenges', player.cookie, {
    game: 'Tekken 8',
    amount: 5,
    gamerTag: 'Fuzz',
    phoneNumber: '5550106000',
    console: 'PlayStation',
  })) as { id: number };
  ids.challenge = created.id;
  await call(`/api/challenges/${created.id}/accept`, opponent.cookie, {});
});
afterAll(async () => {
  await app?.stop();
});

/** Throws, with the server's output, unless the process still runs and answers. */
async function expectServing(what: string): Promise<void> {
  const healthy = await fetch(`${origin}/api/health`).then(
    (response) => response.ok,
    () => false,
  );
  if (!healthy || app.exitCode() !== null) {
    throw new Error(`the server stopped after ${what}:\n${app.logs().slice(-4_000)}`);
  }
}

// ---- arbitraries ---------------------------------------------------------------------------

const oddValue = fc.oneof(
  fc.constantFrom(
    '99999999999',
    '2147483648',
    '2147483647',
    '9007199254740993',
    '99999999999999999999',
    '-1',
    '0',
    '1.5',
    '1e309',
    '1e3',
    'NaN',
    'Infinity',
    '0x10',
    '١٢',
    '',
    ' ',
    'null',
    'undefined',
    '[object Object]',
    '__proto__',
    "1' or '1'='1",
    '\u0000',
  ),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.string({ maxLength: 3000, minLength: 1000 }),
);

/** Sometimes the real ids, so that handshakes get past the first checks and messages flow. */
const idValue = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      () => String(ids.player),
      () => String(ids.challenge),
    ),
  },
  { weight: 1, arbitrary: fc.constant(() => String(ids.opponent)) },
  { weight: 4, arbitrary: oddValue.map((value) => () => value) },
);

const queryField = fc.tuple(
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('challengeId', 'tournamentMatchId', 'userId') },
    { weight: 1, arbitrary: fc.constantFrom('EIO', 'transport', 'sid', 'constructor', 'b64') },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  ),
  idValue,
);

/** The query of a handshake: fields in any number, repeated or missing, plus raw odd text. */
const handshakeQuery = fc
  .record({
    fields: fc.array(queryField, { maxLength: 5 }),
    raw: fc.constantFrom('', '&%', '&%zz=1', '&&&', '&=', '&challengeId', '&userId[]=1'),
  })
  .map(({ fields, raw }) => () => {
    const query = new URLSearchParams();
    for (const [key, value] of fields) query.append(key, value());
    return `${query.toString()}${raw}`;
  });

const handshakeHeaders = fc.record({
  cookie: fc.constantFrom('session', 'none', 'garbage', 'two'),
  origin: fc.constantFrom('same', 'none', 'evil', 'garbage'),
});

/**
 * A whole handshake: often the player's own, right in every field but one, which is set to
 * another value (an id past PostgreSQL's integer, text, nothing) or joined by a field of its
 * own, so that each field's odd values meet an otherwise good session and reach the checks
 * behind it; otherwise anything.
 */
const handshake = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      query: fc
        .tuple(fc.constantFrom('set', 'add', 'none'), queryField)
        .map(([change, [key, value]]) => () => {
          const query = new URLSearchParams({
            challengeId: String(ids.challenge),
            userId: String(ids.player),
          });
          if (change === 'set') query.set(key, value());
          if (change === 'add') query.append(key, value());
          return query.toString();
        }),
      headers: fc.constant({ cookie: 'session', origin: 'same' }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ query: handshakeQuery, headers: handshakeHeaders }) },
);

function headersFor(choice: { cookie: string; origin: string }): Record<string, string> {
  const headers: Record<string, string> = {};
  if (choice.cookie === 'session') headers.cookie = cookie;
  if (choice.cookie === 'garbage') headers.cookie = 'sid=%zz; ;;=';
  if (choice.cookie === 'two') headers.cookie = `${cookie}; sid=forged`;
  if (choice.origin === 'same') headers.origin = origin;
  if (choice.origin === 'evil') headers.origin = 'https://evil.example';
  if (choice.origin === 'garbage') headers.origin = 'not a url';
  return headers;
}

const deepJson = fc
  .integer({ min: 100, max: 20_000 })
  .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`);

const signalPayload = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.record({
    userId: fc.oneof(
      fc.constant(0).map(() => ids.player),
      fc.integer(),
      fc.double(),
      fc.constant(99_999_999_999),
      fc.string(),
    ),
    signal: fc.oneof(
      fc.anything({ maxDepth: 3 }),
      fc.constant({ type: 'offer', sdp: 'v=0' }),
      fc.string({ minLength: 10_000, maxLength: 20_000 }).map((blob) => ({ blob })),
    ),
  }),
);

/** What a socket.io client could put in a frame, and what it never would. */
const voiceFrame: fc.Arbitrary<string | Buffer> = fc.oneof(
  signalPayload.map((payload) => `42${JSON.stringify(['signal', payload]) ?? 'null'}`),
  fc
    .tuple(fc.string({ maxLength: 12 }), fc.anything({ maxDepth: 2 }))
    .map(([event, payload]) => `42${JSON.stringify([event, payload]) ?? '[]'}`),
  deepJson.map((json) => `42["signal",{"userId":1,"signal":{"a":${json}}}]`),
  deepJson.map((json) => `42${json}`),
  fc.constantFrom(
    '',
    '2',
    '3',
    '4',
    '6',
    '40',
    '41',
    '42',
    '42[',
    '42["signal"',
    '42["signal"]',
    '42[null]',
    '42{}',
    '43',
    '451-["signal",{"_placeholder":true,"num":0}]',
    '40/admin,',
    '42/admin,["signal",{}]',
    '4299999999999999999999["signal",{}]',
    '42["__proto__",{"userId":1}]',
    '42["signal",{"__proto__":{"userId":1},"signal":{}}]',
  ),
  fc.string({ maxLength: 200 }),
  fc.string({ minLength: 40_000, maxLength: 60_000 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
);

/** What the account socket's client sends (PONG), and everything it never would. */
const accountFrame: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '{"type":"PONG"}',
    '{"type":"PING"}',
    '{"type":"PONG","extra":1}',
    '{"type":null}',
    '{"__proto__":{"type":"PONG"}}',
    'PONG',
    '',
    'null',
    '[]',
    '{',
  ),
  fc.anything({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'undefined'),
  deepJson,
  fc.string({ maxLength: 200 }),
  fc.string({ minLength: 70_000, maxLength: 120_000 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
);

// ---- raw socket clients --------------------------------------------------------------------

type Outcome = 'open' | 'refused' | 'failed';

/** Opens a raw WebSocket and waits for it to open or fail; never throws. */
function openSocket(url: string, headers: Record<string, string>): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers, handshakeTimeout: FRAME_TIMEOUT_MS });
    socket.once('open', () => resolve(socket));
    socket.once('error', () => resolve(null));
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(null);
    });
  });
}

/**
 * A voice handshake over socket.io's WebSocket transport, spoken by hand: engine.io's open
 * packet, then the namespace connect (`40`), answered by a connect (`40…`) or an error (`44…`).
 * The listeners are on before the socket opens: the open packet can arrive in the same turn.
 */
function voiceHandshake(
  query: string,
  headers: Record<string, string>,
): Promise<{ outcome: Outcome; refusal?: string; socket: WebSocket | null }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(
      `${origin.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket&${query}`,
      { headers, handshakeTimeout: FRAME_TIMEOUT_MS },
    );
    const timer = setTimeout(() => resolve({ outcome: 'failed', socket }), FRAME_TIMEOUT_MS);
    let settled = false;
    const settle = (result: { outcome: Outcome; refusal?: string; socket: WebSocket | null }) => {
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    socket.on('message', (data) => {
      // After the handshake, what the server answers the frames is not this function's to read.
      if (settled) return;
      const text = String(data);
      if (text.startsWith('0')) socket.send('40');
      else if (text.startsWith('2')) socket.send('3');
      else if (text.startsWith('40')) settle({ outcome: 'open', socket });
      else if (text.startsWith('44')) {
        const { message } = JSON.parse(text.slice(2)) as { message: string };
        settle({ outcome: 'refused', refusal: message, socket });
      }
    });
    socket.once('error', () => settle({ outcome: 'failed', socket: null }));
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      settle({ outcome: 'failed', socket: null });
    });
    socket.once('close', () => settle({ outcome: 'failed', socket: null }));
  });
}

/** Sends the frames, lets the server read them, and closes. */
async function sendAndClose(socket: WebSocket, frames: Array<string | Buffer>): Promise<void> {
  for (const frame of frames) {
    if (socket.readyState !== WebSocket.OPEN) break;
    socket.send(frame);
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
  socket.terminate();
}

// ---- the runs ------------------------------------------------------------------------------

describe('socket traffic against the built server (issue 35)', () => {
  it('the voice socket refuses or admits every handshake, drops every bad frame and keeps serving', async () => {
    const seen: Record<Outcome, number> = { open: 0, refused: 0, failed: 0 };
    const knownRefusals = new Set<string>(Object.values(VOICE_REFUSALS));
    await fc.assert(
      fc.asyncProperty(
        handshake,
        fc.array(voiceFrame, { maxLength: 6 }),
        async ({ query, headers }, frames) => {
          const text = query();
          const result = await voiceHandshake(text, headersFor(headers));
          seen[result.outcome] += 1;
          if (result.refusal !== undefined && !knownRefusals.has(result.refusal)) {
            throw new Error(`refused ${text} with an unknown reason: ${result.refusal}`);
          }
          if (result.socket) await sendAndClose(result.socket, frames);
          await expectServing(`a voice handshake ?${text.slice(0, 200)}`);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    // The runs reached every stage: admitted calls, refusals, and transports refused outright.
    expect(seen.open).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(RUNS / 4);
  });

  it('the voice socket survives the probe: an id past PostgreSQL integer in every field', async () => {
    for (const field of ['challengeId', 'tournamentMatchId']) {
      const result = await voiceHandshake(`${field}=99999999999&userId=${ids.player}`, {
        cookie,
        origin,
      });
      expect(result.refusal).toBe(VOICE_REFUSALS.badQuery);
      result.socket?.terminate();
    }
    await expectServing('the probe');
  });

  it('the account socket refuses or admits every handshake, ignores every bad frame and keeps serving', async () => {
    let opened = 0;
    await fc.assert(
      fc.asyncProperty(
        handshake,
        fc.array(accountFrame, { maxLength: 6 }),
        fc.constantFrom(1000, 1001, 1008, 3000, 4999),
        async ({ query, headers }, frames, closeCode) => {
          const text = query();
          const socket = await openSocket(
            `${origin.replace('http', 'ws')}/ws?${text}`,
            headersFor(headers),
          );
          if (socket) {
            opened += 1;
            for (const frame of frames) {
              if (socket.readyState === WebSocket.OPEN) socket.send(frame);
            }
            await new Promise((resolve) => setTimeout(resolve, 10));
            if (socket.readyState === WebSocket.OPEN) socket.close(closeCode);
            else socket.terminate();
          }
          await expectServing(`an account socket ?${text.slice(0, 200)}`);
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(opened).toBeGreaterThan(0);
  });

  it('logged no rejection that nothing handled', () => {
    expect(app.logs()).not.toContain('a promise rejected with nothing to handle it');
  });
});
