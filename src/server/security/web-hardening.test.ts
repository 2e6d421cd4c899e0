import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import {
  API_CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
} from '#server/plugins/security-headers.ts';
import { openTestDatabase } from '#tests/helpers/database.ts';
import { multipart, sampleFile } from '#tests/helpers/multipart.ts';
import {
  Agent,
  expectLedgerHealthy,
  GENEROUS_RATE_LIMITS,
  registration,
  type TestApp,
  stillClock,
} from '#tests/helpers/test-app.ts';
import { queryRows, type DatabaseHandle } from '#server/db/client.ts';
import {
  createAdminActor,
  createSettledTestApp,
  createDeletedActor,
  PAYOUT_BODY,
  send,
  World,
  type Actor,
} from './testing/world.ts';

/**
 * Web hardening (issue 9, docs/accounts.md, docs/architecture.md#files-and-mail): response headers,
 * cookie flags, body limits, links typed by users, uploads served as inert attachments, and the
 * rate limits on the doors an attacker knocks on. Origin checks on the WebSocket and socket.io
 * handshakes are proven in features/realtime/account-socket.test.ts and
 * features/voice/signalling.test.ts.
 */

let database: DatabaseHandle;
let t: TestApp;
let admin: Actor;
let world: World;

beforeAll(async () => {
  database = await openTestDatabase();
  t = await createSettledTestApp({ database });
  admin = await createAdminActor(t);
  world = await World.create(t, { deleted: await createDeletedActor(t, admin) });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('security headers', () => {
  it('every response refuses sniffing, framing and reading by other origins', async () => {
    for (const url of ['/api/health', '/api/user', '/api/nope', '/metrics', '/nope']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      // Plain http: no HSTS, which would lock a local install out of itself.
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  // Pages themselves are checked in lib/client-pages.test.ts, with a client build to serve.
  it('answers outside /api carry the app CSP and the page-only policies', async () => {
    for (const url of ['/metrics', '/nope']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).toBe(
        contentSecurityPolicy({ publicUrl: undefined, stripeEnabled: false }),
      );
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(response.headers['permissions-policy'], url).toBe(
        'camera=(), geolocation=(), microphone=(self)',
      );
    }
  });

  it('API answers carry a policy that lets nothing run or frame them, and nothing page-only', async () => {
    const api = directives(API_CONTENT_SECURITY_POLICY);
    expect(api.get('default-src')).toEqual(["'none'"]);
    expect(api.get('frame-ancestors')).toEqual(["'none'"]);
    for (const url of ['/api/health', '/api/user', '/api/nope']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).toBe(API_CONTENT_SECURITY_POLICY);
      expect(response.headers['referrer-policy'], url).toBeUndefined();
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(response.headers['permissions-policy'], url).toBeUndefined();
    }
  });

  it('API answers, signed in or not, are never stored by a cache', async () => {
    const player = new Agent(t.app);
    await player.post('/api/register', registration());
    for (const url of ['/api/health', '/api/user', '/api/challenges?status=open', '/api/nope']) {
      const response = await player.get(url);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('the policy allows only this origin to run code and nobody to frame the app', () => {
    const csp = directives(contentSecurityPolicy({ publicUrl: undefined, stripeEnabled: false }));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('frame-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    for (const sources of csp.values()) {
      expect(sources).not.toContain("'unsafe-eval'");
      expect(sources).not.toContain('*');
    }
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it("Stripe's script, frames and API are allowed only when Stripe is configured", () => {
    const stripe = directives(
      contentSecurityPolicy({ publicUrl: 'https://play.example.com', stripeEnabled: true }),
    );
    expect(stripe.get('script-src')).toEqual([
      "'self'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
    ]);
    expect(stripe.get('frame-src')).toEqual([
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
    ]);
    expect(stripe.get('connect-src')).toEqual([
      "'self'",
      'wss://play.example.com',
      'https://api.stripe.com',
    ]);
  });

  it('HSTS and Secure cookies once PUBLIC_URL is https, and a Stripe-aware CSP', async () => {
    const https = await createSettledTestApp({
      database,
      env: {
        PUBLIC_URL: 'https://play.example.com',
        STRIPE_SECRET_KEY: 'sk_test_headers',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_headers',
      },
    });
    try {
      const response = await new Agent(https.app).post('/api/register', registration());
      expect(response.headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
      expect(response.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
      const page = await https.app.inject({ method: 'GET', url: '/metrics' });
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(page.headers['content-security-policy']).toContain('https://js.stripe.com');
      const cookie = response.cookies.find((c) => c.name === 'sid');
      expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    } finally {
      await https.close();
    }
  });

  it('the page the browser loads runs no inline script', () => {
    // The source page Vite builds from, and the built page when there is one: module scripts
    // with a src, no inline code and no inline event handlers, so script-src 'self' suffices.
    const pages = [join(projectRoot(), 'src', 'client', 'index.html')];
    const built = join(projectRoot(), 'dist', 'client', 'index.html');
    if (existsSync(built)) pages.push(built);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const [, attributes = '', body = ''] of scripts) {
        expect(attributes, page).toMatch(/\bsrc=/);
        expect(body.trim(), page).toBe('');
      }
      expect(html, page).not.toMatch(/\son[a-z]+\s*=/i);
      expect(html, page).not.toMatch(/javascript:/i);
    }
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, scoped to /, and expires with the session', async () => {
    const response = await new Agent(t.app).post('/api/register', registration());
    const cookie = response.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.maxAge).toBe(30 * 86_400);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is Secure when a trusted proxy says the request came over https', async () => {
    const proxied = await createSettledTestApp({ database, env: { TRUST_PROXY: 'true' } });
    try {
      const response = await proxied.app.inject({
        method: 'POST',
        url: '/api/register',
        headers: { 'x-forwarded-proto': 'https' },
        payload: registration(),
      });
      expect(response.cookies.find((c) => c.name === 'sid')?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  it('is cleared on logout with the same flags', async () => {
    const agent = new Agent(t.app);
    await agent.post('/api/register', registration());
    const response = await agent.post('/api/logout');
    const cleared = response.cookies.find((c) => c.name === 'sid');
    expect(cleared).toMatchObject({ value: '', httpOnly: true, sameSite: 'Lax', path: '/' });
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });
});

describe('request size limits', () => {
  it('refuses a JSON body over 1 MB with 413 and a message', async () => {
    const response = await world.send('player', {
      method: 'POST',
      url: '/api/user/update-email',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: `${'a'.repeat(1024 * 1024)}@example.com` }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.any(String),
    });
  });

  it('keeps one file per upload and refuses a form with too many parts', async () => {
    const challengeId = await world.acceptedChallenge();
    const boundary = 'limits';
    const part = (name: string, file: boolean) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
      (file ? `; filename="${name}.png"\r\nContent-Type: image/png` : '') +
      `\r\n\r\n${file ? Buffer.from(sampleFile('png')).toString('latin1') : 'x'}\r\n`;
    const post = (parts: string[]) =>
      world.send('player', {
        method: 'POST',
        url: `/api/challenges/${challengeId}/upload-screenshot`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'latin1'),
      });
    const before = await queryRows<{ count: string }>(
      database.db,
      sql`select count(*)::text as count from uploads`,
    );
    // The second file is never read: the first one is the upload.
    const two = await post([part('screenshot', true), part('screenshot', true)]);
    expect(two.statusCode).toBe(201);
    const after = await queryRows<{ count: string }>(
      database.db,
      sql`select count(*)::text as count from uploads`,
    );
    expect(Number(after[0]?.count) - Number(before[0]?.count)).toBe(1);

    const crowded = await post(Array.from({ length: 8 }, (_, i) => part(`field${i}`, false)));
    expect(crowded.statusCode).toBe(413);
    expect(crowded.json().message).toEqual(expect.any(String));
  });

  it('answers a malformed multipart body with 400 instead of hanging or failing', async () => {
    // Found by the bad-input test: a file part cut short used to leave the request waiting
    // forever (the parser's error was not forwarded through pipe()), and a body without a
    // boundary, or with none of its parts, answered 500.
    const challengeId = await world.acceptedChallenge();
    const bodies: Array<[string, string]> = [
      [
        'multipart/form-data; boundary=B',
        '--B\r\nContent-Disposition: form-data; name="screenshot"; filename="a.png"\r\n' +
          'Content-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n',
      ],
      ['multipart/form-data', 'no boundary at all'],
      ['multipart/form-data; boundary=X', 'random bytes without any part'],
    ];
    for (const url of [
      `/api/challenges/${challengeId}/upload-screenshot`,
      '/api/user/upload-license',
    ]) {
      for (const [type, body] of bodies) {
        const response = await world.send('player', {
          method: 'POST',
          url,
          headers: { 'content-type': type },
          payload: Buffer.from(body, 'latin1'),
        });
        expect(response.statusCode, `${url} ${type}`).toBe(400);
        expect(response.json().message).toBe(UPLOAD_MESSAGES.noFile);
      }
    }
  });
});

describe('links typed by users', () => {
  it.each([
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'JaVaScRiPt:alert(document.cookie)',
    '   javascript:alert(1)',
    '\tjavascript:alert(1)',
    '\njavascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '&#106;avascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'http://example.com/shot.png',
    '//example.com/shot.png',
    'example.com/shot.png',
    '/api/uploads/../../etc/passwd',
  ])('refuses %j as a screenshot link', async (screenshot) => {
    const challengeId = await world.acceptedChallenge();
    const response = await world.send('player', {
      method: 'POST',
      url: `/api/challenges/${challengeId}/submit`,
      payload: { creatorScore: 2, acceptorScore: 1, screenshot },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(CHALLENGE_MESSAGES.screenshotHttps);
  });

  it('stores an https link as typed, and nothing else', async () => {
    const fresh = await World.create(t, { deleted: world.actor('deleted') });
    const challengeId = await fresh.acceptedChallenge();
    const response = await fresh.send('player', {
      method: 'POST',
      url: `/api/challenges/${challengeId}/submit`,
      payload: { creatorScore: 2, acceptorScore: 1, screenshot: ' https://example.com/a.png ' },
    });
    expect(response.statusCode).toBe(200);
    const view = await fresh.send('player', {
      method: 'GET',
      url: `/api/challenges/${challengeId}`,
    });
    expect(view.json().winnerScreenshot).toBe('https://example.com/a.png');
    await expectLedgerHealthy(database);
  });
});

describe('uploaded files', () => {
  it('are served as sandboxed attachments, even when the bytes hide a web page', async () => {
    // A real PNG header followed by HTML: accepted as an image, but it can never run as a page.
    const bytes = Buffer.concat([
      Buffer.from(sampleFile('png', 16)),
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    ]);
    const challengeId = await world.acceptedChallenge();
    const upload = await world.send('player', {
      method: 'POST',
      url: `/api/challenges/${challengeId}/upload-screenshot`,
      ...multipart('screenshot', 'page.html', 'text/html', bytes),
    });
    expect(upload.statusCode).toBe(201);
    const file = await world.send('opponent', { method: 'GET', url: upload.json().url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="[0-9a-f-]{36}\.png"$/,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers['cache-control']).toBe('private, no-store');
  });

  it('refuse bytes that are not an accepted image, whatever the name and declared type', async () => {
    const challengeId = await world.acceptedChallenge();
    for (const bytes of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      Buffer.from('<!doctype html><script>alert(1)</script>'),
      Buffer.from(sampleFile('exe')),
    ]) {
      const response = await world.send('player', {
        method: 'POST',
        url: `/api/challenges/${challengeId}/upload-screenshot`,
        ...multipart('screenshot', 'shot.png', 'image/png', bytes),
      });
      expect(response.statusCode).toBe(415);
      expect(response.json().message).toBe(UPLOAD_MESSAGES.invalidType);
    }
  });
});

describe('rate limits', () => {
  it('login, registration, payment creation and payout requests answer 429 with retryAfter', async () => {
    const tight = { limit: 1, windowMs: 60_000 };
    const limited = await createSettledTestApp({
      database,
      clock: stillClock(),
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        loginPerUsername: { name: 'login:user:h', ...tight },
        registerPerAddress: { name: 'register:ip:h', ...tight },
        paymentCreatePerUser: { name: 'payment:create:h', ...tight },
        payoutRequestPerUser: { name: 'payout:request:h', ...tight },
      },
    });
    try {
      const player = world.actor('player');
      const attempts = {
        login: () =>
          send(limited, undefined, {
            method: 'POST',
            url: '/api/login',
            payload: { username: player.username, password: 'wrong-password' },
          }),
        registration: () =>
          send(limited, undefined, {
            method: 'POST',
            url: '/api/register',
            payload: registration(),
          }),
        'card payment': () =>
          send(limited, player, {
            method: 'POST',
            url: '/api/create-payment-intent',
            payload: { amount: 20 },
          }),
        payout: () =>
          send(limited, player, { method: 'POST', url: '/api/payouts', payload: PAYOUT_BODY }),
      };
      for (const [what, attempt] of Object.entries(attempts)) {
        expect((await attempt()).statusCode, what).not.toBe(429);
        const refused = await attempt();
        expect(refused.statusCode, what).toBe(429);
        const body = refused.json<{ code: string; message: string; retryAfter: number }>();
        expect(body.code, what).toBe('RATE_LIMITED');
        expect(body.message, what).toEqual(expect.any(String));
        expect(body.retryAfter, what).toBeGreaterThan(0);
        expect(body.retryAfter, what).toBeLessThanOrEqual(60);
        expect(refused.headers['retry-after'], what).toBe(String(body.retryAfter));
      }
      // The crypto door shares the payment limit: it is closed too.
      const crypto = await send(limited, player, {
        method: 'POST',
        url: '/api/create-crypto-payment',
        payload: { amount: 20 },
      });
      expect(crypto.statusCode).toBe(429);
      // Confirming a card payment is not a creation: it is not refused by that limit.
      const confirm = await send(limited, player, {
        method: 'POST',
        url: '/api/sandbox/card/confirm',
        payload: {
          clientSecret: (await world.unpaidCardIntent()).clientSecret,
          cardNumber: SANDBOX_TEST_CARDS.success,
        },
      });
      expect(confirm.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
    await expectLedgerHealthy(database);
  });
});
