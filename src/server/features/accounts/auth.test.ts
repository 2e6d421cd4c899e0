import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '#server/db/schema/sessions.ts';
import { users } from '#server/db/schema/users.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import {
  Agent,
  createTestApp,
  registration,
  signUp,
  uniqueUsername,
  type TestApp,
  stillClock,
} from '#tests/helpers/test-app.ts';
import { hashToken } from './sessions.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/register', () => {
  it('creates the user, signs them in and never returns the password hash', async () => {
    const agent = new Agent(t.app);
    const body = registration({ email: 'New.Player@Example.com' });
    const response = await agent.post('/api/register', body);
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({
      username: body.username,
      balance: 0,
      isOver18: true,
      isAdmin: false,
      phoneNumber: body.phoneNumber,
      email: 'new.player@example.com',
      avatarUrl: null,
    });
    expect(response.body).not.toMatch(/password/i);
    const me = await agent.get('/api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(user.id);

    const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(stored?.passwordHash).not.toContain(body.password);
  });

  it.each([
    [{ username: 'ab' }, 'username', AUTH_MESSAGES.usernameMin],
    [{ username: 'a'.repeat(31) }, 'username', AUTH_MESSAGES.usernameMax],
    [{ username: 'bad name!' }, 'username', AUTH_MESSAGES.usernamePattern],
    [{ password: '12345' }, 'password', AUTH_MESSAGES.passwordMin],
    [{ password: 'x'.repeat(101) }, 'password', AUTH_MESSAGES.passwordMax],
    [{ phoneNumber: '555-0100' }, 'phoneNumber', AUTH_MESSAGES.phoneMin],
    [{ phoneNumber: '+1 (555) 010-20000' }, 'phoneNumber', AUTH_MESSAGES.phoneMax],
    [{ phoneNumber: '555-0100-abc' }, 'phoneNumber', AUTH_MESSAGES.phonePattern],
    [{ email: 'not-an-email' }, 'email', AUTH_MESSAGES.email],
    [{ isOver18: false }, 'isOver18', AUTH_MESSAGES.age],
  ] as const)('refuses %o with the SPEC message', async (override, field, message) => {
    const response = await new Agent(t.app).post('/api/register', registration(override as never));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message,
      fields: { [field]: message },
    });
  });

  it('refuses a missing field with the generic Required message', async () => {
    const { phoneNumber: _omitted, ...rest } = registration();
    const response = await new Agent(t.app).post('/api/register', rest);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ phoneNumber: 'Required' });
  });

  it('accepts a registration without an e-mail address', async () => {
    const response = await new Agent(t.app).post('/api/register', registration({ email: '' }));
    expect(response.statusCode).toBe(201);
    expect(response.json().email).toBeNull();
  });

  it('refuses extra fields such as isAdmin or balance', async () => {
    const response = await new Agent(t.app).post('/api/register', {
      ...registration(),
      isAdmin: true,
    });
    expect(response.statusCode).toBe(400);
    const withBalance = await new Agent(t.app).post('/api/register', {
      ...registration(),
      balance: 1000,
    });
    expect(withBalance.statusCode).toBe(400);
  });

  it('refuses a taken username whatever its case, with a clear 400', async () => {
    const { user } = await signUp(t.app);
    const response = await new Agent(t.app).post(
      '/api/register',
      registration({ username: user.username.toUpperCase() }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'USERNAME_TAKEN',
      message: 'Username already exists',
    });
  });

  it('keeps the deleted-account name space for deleted accounts', async () => {
    const response = await new Agent(t.app).post(
      '/api/register',
      registration({ username: 'Deleted_User_42' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(AUTH_MESSAGES.usernameReserved);
  });

  it('lets exactly one of two simultaneous registrations of a name through', async () => {
    const username = uniqueUsername('race');
    const results = await Promise.all(
      [username, username.toUpperCase()].map((name) =>
        new Agent(t.app).post('/api/register', registration({ username: name })),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
  });
});

describe('sessions', () => {
  it('sets an HttpOnly, SameSite=Lax cookie holding a token whose hash alone is stored', async () => {
    const response = await new Agent(t.app).post('/api/register', registration());
    const cookie = response.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(cookie!.value)));
    expect(rows).toHaveLength(1);
    const byToken = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, cookie!.value));
    expect(byToken).toHaveLength(0);
  });

  it('marks the cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await createTestApp({
      env: { PUBLIC_URL: 'https://play.example.com' },
      database: t.database,
    });
    try {
      const response = await new Agent(secure.app).post('/api/register', registration());
      expect(response.cookies.find((c) => c.name === 'sid')?.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('answers 401 without a session and with an unknown token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      cookies: { sid: 'forged-token' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toContain('Unauthorized');
  });

  it('issues a new token at login and revokes the one the browser had', async () => {
    const { agent, user, password } = await signUp(t.app);
    const before = agent.sessionCookie;
    const login = await agent.post('/api/login', { username: user.username, password });
    expect(login.statusCode).toBe(200);
    expect(agent.sessionCookie).toBeDefined();
    expect(agent.sessionCookie).not.toBe(before);
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      cookies: { sid: before! },
    });
    expect(stale.statusCode).toBe(401);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
  });

  it('logout revokes the session on the server, not just in the browser', async () => {
    const { agent } = await signUp(t.app);
    const token = agent.sessionCookie!;
    const response = await agent.post('/api/logout');
    expect(response.statusCode).toBe(204);
    expect(agent.sessionCookie).toBeUndefined();
    const replay = await t.app.inject({ method: 'GET', url: '/api/user', cookies: { sid: token } });
    expect(replay.statusCode).toBe(401);
  });

  it('expires sessions after the idle timeout and after the absolute lifetime', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const clocked = await createTestApp({
      env: { SESSION_IDLE_MINUTES: '60', SESSION_MAX_DAYS: '1' },
      clock: () => now,
      database: t.database,
    });
    try {
      const { agent } = await signUp(clocked.app);
      now = new Date('2030-01-01T00:59:00Z');
      expect((await agent.get('/api/user')).statusCode).toBe(200);
      // Activity 59 minutes in moved the idle deadline on; an hour of silence after it ends it.
      now = new Date('2030-01-01T01:58:00Z');
      expect((await agent.get('/api/user')).statusCode).toBe(200);
      now = new Date('2030-01-01T02:59:00Z');
      expect((await agent.get('/api/user')).statusCode).toBe(401);

      const second = await signUp(clocked.app);
      for (let minutes = 50; minutes <= 24 * 60; minutes += 50) {
        now = new Date(Date.parse('2030-01-01T02:59:00Z') + minutes * 60_000);
        const status = (await second.agent.get('/api/user')).statusCode;
        expect(status).toBe(minutes < 24 * 60 ? 200 : 401);
      }
      now = new Date(Date.parse('2030-01-01T02:59:00Z') + 24 * 60 * 60_000 + 1000);
      expect((await second.agent.get('/api/user')).statusCode).toBe(401);
    } finally {
      await clocked.close();
    }
  });
});

describe('POST /api/login', () => {
  it('signs in with the right password, whatever the case of the username', async () => {
    const { user, password } = await signUp(t.app);
    const agent = new Agent(t.app);
    const response = await agent.post('/api/login', {
      username: user.username.toUpperCase(),
      password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, username: user.username, balance: 0 });
    expect(response.body).not.toMatch(/password/i);
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const { user } = await signUp(t.app);
    const wrong = await new Agent(t.app).post('/api/login', {
      username: user.username,
      password: 'wrong-password',
    });
    const unknown = await new Agent(t.app).post('/api/login', {
      username: 'nobody_here',
      password: 'whatever',
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid username or password',
      });
    }
  });

  it('requires both fields with the SPEC messages', async () => {
    const response = await new Agent(t.app).post('/api/login', { username: '', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({
      username: AUTH_MESSAGES.usernameRequired,
      password: AUTH_MESSAGES.passwordRequired,
    });
  });
});

describe('login throttling', () => {
  it('answers 429 with retryAfter after too many attempts on one account, and the window ends', async () => {
    let now = new Date('2031-05-05T10:00:00Z');
    const throttled = await createTestApp({
      database: t.database,
      clock: () => now,
      rateLimits: {
        loginPerUsername: { name: 'login:user', limit: 3, windowMs: 15 * 60_000 },
        loginPerAddress: { name: 'login:ip', limit: 1000, windowMs: 15 * 60_000 },
      },
    });
    try {
      const { user, password } = await signUp(throttled.app);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const r = await new Agent(throttled.app).post('/api/login', {
          username: user.username,
          password: 'nope-nope',
        });
        expect(r.statusCode).toBe(401);
      }
      const blocked = await new Agent(throttled.app).post('/api/login', {
        username: user.username,
        password,
      });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBe('900');
      expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 900 });
      expect(blocked.json().message).toBe(
        'Too many login attempts for this account. Please try again in 15 minutes.',
      );

      now = new Date('2031-05-05T10:15:00Z');
      const later = await new Agent(throttled.app).post('/api/login', {
        username: user.username,
        password,
      });
      expect(later.statusCode).toBe(200);
    } finally {
      await throttled.close();
    }
  });

  it('counts every spelling of a name against the account it finds; a look-alike signs nobody in (issue 35)', async () => {
    const throttled = await createTestApp({
      database: t.database,
      clock: stillClock(),
      rateLimits: {
        loginPerUsername: { name: 'login:user3', limit: 3, windowMs: 15 * 60_000 },
        loginPerAddress: { name: 'login:ip3', limit: 1000, windowMs: 15 * 60_000 },
      },
    });
    try {
      const username = uniqueUsername('mini');
      const { password } = await signUp(throttled.app, { username });
      const login = async (name: string, secret: string) =>
        (await new Agent(throttled.app).post('/api/login', { username: name, password: secret }))
          .statusCode;
      // A dotted capital I, which PostgreSQL's lower() makes an i: a name of its own to
      // JavaScript, the same account to the database.
      const lookAlike = username.replace('i', '\u0130');
      expect(await login(lookAlike, password)).toBe(401);
      expect(await login(username.replace(/i/g, '\u0130'), password)).toBe(401);
      for (const spelling of [username, username.toUpperCase(), username.replace('i', 'I')]) {
        expect(await login(spelling, 'wrong-password')).toBe(401);
      }
      // Three guesses in any case used the account's budget: the right password waits.
      expect(await login(username, password)).toBe(429);
      expect(await login(username.toUpperCase(), password)).toBe(429);
      expect(await login(lookAlike, password)).not.toBe(200);
    } finally {
      await throttled.close();
    }
  });

  it('limits attempts per address across accounts', async () => {
    const throttled = await createTestApp({
      database: t.database,
      clock: stillClock(),
      rateLimits: {
        loginPerUsername: { name: 'login:user2', limit: 1000, windowMs: 60_000 },
        loginPerAddress: { name: 'login:ip2', limit: 2, windowMs: 60_000 },
      },
    });
    try {
      const statuses: number[] = [];
      for (const name of ['aaa_one', 'bbb_two', 'ccc_three']) {
        const r = await throttled.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: name, password: 'secret1' },
          remoteAddress: '203.0.113.9',
        });
        statuses.push(r.statusCode);
      }
      expect(statuses).toEqual([401, 401, 429]);
      const otherAddress = await throttled.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: 'ddd_four', password: 'secret1' },
        remoteAddress: '203.0.113.10',
      });
      expect(otherAddress.statusCode).toBe(401);
    } finally {
      await throttled.close();
    }
  });

  describe('behind proxies (TRUST_PROXY)', () => {
    /** Three failed logins, each from a new forged left-most address, through the proxies. */
    async function loginsThrough(
      trustProxy: string,
      forwardedFor: (attempt: number) => string,
      remoteAddress: string,
    ): Promise<number[]> {
      const throttled = await createTestApp({
        database: t.database,
        clock: stillClock(),
        env: { TRUST_PROXY: trustProxy },
        rateLimits: {
          loginPerUsername: { name: `login:user:${trustProxy}`, limit: 1000, windowMs: 60_000 },
          loginPerAddress: { name: `login:ip:${trustProxy}`, limit: 2, windowMs: 60_000 },
        },
      });
      try {
        const statuses: number[] = [];
        for (const attempt of [1, 2, 3]) {
          const r = await throttled.app.inject({
            method: 'POST',
            url: '/api/login',
            payload: { username: `nobody_${attempt}`, password: 'secret1' },
            headers: { 'x-forwarded-for': forwardedFor(attempt) },
            remoteAddress,
          });
          statuses.push(r.statusCode);
        }
        return statuses;
      } finally {
        await throttled.close();
      }
    }

    it('true means one proxy: a forged left-most X-Forwarded-For entry does not escape the throttle', async () => {
      const statuses = await loginsThrough(
        'true',
        (attempt) => `198.51.100.${attempt}, 203.0.113.20`,
        '10.0.0.5',
      );
      expect(statuses).toEqual([401, 401, 429]);
    });

    it('a number of proxies takes the address the farthest of them saw', async () => {
      // Client 203.0.113.21 → CDN (appends it) → load balancer (appends the CDN's address).
      const statuses = await loginsThrough(
        '2',
        (attempt) => `198.51.100.${attempt}, 203.0.113.21, 192.0.2.${attempt}`,
        '10.0.0.5',
      );
      expect(statuses).toEqual([401, 401, 429]);
      // Counted as the clients they claim to be only when the count says so: with one proxy the
      // CDN's addresses differ per attempt, so nothing is throttled.
      const oneHop = await loginsThrough(
        '1',
        (attempt) => `198.51.100.${attempt}, 203.0.113.22, 192.0.2.${attempt}`,
        '10.0.0.5',
      );
      expect(oneHop).toEqual([401, 401, 401]);
    });

    it('proxy addresses are skipped from the right; the first other address is the client', async () => {
      const statuses = await loginsThrough(
        '10.0.0.0/8, 192.0.2.0/24',
        (attempt) => `198.51.100.${attempt}, 203.0.113.23, 192.0.2.${attempt}, 10.1.2.3`,
        '10.0.0.5',
      );
      expect(statuses).toEqual([401, 401, 429]);
    });

    it('a request that does not come from a trusted proxy is judged by its own address', async () => {
      // Straight from the internet, with a made-up header: the header is not believed.
      const statuses = await loginsThrough(
        '10.0.0.0/8',
        (attempt) => `198.51.100.${attempt}`,
        '203.0.113.24',
      );
      expect(statuses).toEqual([401, 401, 429]);
      // Without TRUST_PROXY the header means nothing either.
      const direct = await loginsThrough(
        'false',
        (attempt) => `203.0.113.${attempt}`,
        '203.0.113.25',
      );
      expect(direct).toEqual([401, 401, 429]);
    });
  });

  it('limits registrations per address', async () => {
    const throttled = await createTestApp({
      database: t.database,
      clock: stillClock(),
      rateLimits: { registerPerAddress: { name: 'register:ip2', limit: 1, windowMs: 60_000 } },
    });
    try {
      const first = await new Agent(throttled.app).post('/api/register', registration());
      const second = await new Agent(throttled.app).post('/api/register', registration());
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(429);
    } finally {
      await throttled.close();
    }
  });
});

describe('cross-origin protection', () => {
  it('refuses unsafe requests from another origin and accepts same-origin ones', async () => {
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registration(),
      headers: { origin: 'https://evil.example', host: 'localhost:80' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'CROSS_ORIGIN_REFUSED' });

    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);

    const same = await t.app.inject({
      method: 'POST',
      url: '/api/register',
      payload: registration(),
      headers: {
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(same.statusCode).toBe(201);
  });

  it('does not check safe methods', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(200);
  });
});
