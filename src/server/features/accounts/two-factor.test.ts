import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pendingSignIns, recoveryCodes } from '#server/db/schema/account-security.ts';
import { outbox } from '#server/db/schema/outbox.ts';
import { users } from '#server/db/schema/users.ts';
import { signInAdmin } from '#server/features/admin/testing/admin-agent.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  GENEROUS_RATE_LIMITS,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';

/** 12:00:10 UTC: ten seconds into a 30-second step, so ±30 s lands squarely on its neighbours. */
const START = Date.parse('2030-01-01T12:00:10Z');
let now = new Date(START);
const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  now = new Date(START);
});

/** The code an authenticator app shows for `secret` at `time`. */
function codeAt(secret: string, time: Date): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: time.getTime() });
}

interface TwoFactorPlayer {
  agent: Agent;
  id: number;
  username: string;
  password: string;
  secret: string;
  recoveryCodes: string[];
}

/** A new player who has set up and enabled two-factor sign-in at the current time. */
async function playerWithTwoFactor(): Promise<TwoFactorPlayer> {
  const { agent, user, password } = await signUp(t.app);
  const setup = await agent.post('/api/user/2fa/setup', { password });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enable = await agent.post('/api/user/2fa/enable', { code: codeAt(secret, now) });
  expect(enable.statusCode).toBe(200);
  return {
    agent,
    id: user.id,
    username: user.username,
    password,
    secret,
    recoveryCodes: enable.json<{ recoveryCodes: string[] }>().recoveryCodes,
  };
}

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((cookie) => cookie.name === name);

/** The password step: answers the response and the pending sign-in's cookie value. */
async function passwordStep(player: { username: string; password: string }) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: player.username, password: player.password },
  });
  return { response, pending: cookieOf(response, 'sid2fa')?.value };
}

function secondStep(pending: string | undefined, code: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/login/2fa',
    payload: { code },
    ...(pending ? { cookies: { sid2fa: pending } } : {}),
  });
}

/** Signs in with the password and then `code`; answers the second step's response. */
async function signInWith(player: TwoFactorPlayer, code: string) {
  const { pending } = await passwordStep(player);
  expect(pending).toBeDefined();
  return secondStep(pending, code);
}

const expectInvalidCode = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({
    code: 'INVALID_CODE',
    message: SECURITY_MESSAGES.invalidCode,
    fields: { code: SECURITY_MESSAGES.invalidCode },
  });
};
const expectSignInExpired = (response: LightMyRequestResponse) => {
  expect(response.statusCode).toBe(401);
  expect(response.json()).toEqual({
    code: 'INVALID_CODE',
    message: SECURITY_MESSAGES.signInExpired,
  });
};

describe('setting up two-factor sign-in', () => {
  it('answers a secret, its otpauth URI and a QR code, then enables only with a right code', async () => {
    const { agent, user, password } = await signUp(t.app);
    const wrong = await agent.post('/api/user/2fa/setup', { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
    });
    const setup = await agent.post('/api/user/2fa/setup', { password });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCode } = setup.json<Record<string, string>>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUrl ?? '');
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/SkillStake:${user.username}`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'SkillStake',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode!.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect((await agent.get('/api/user')).json()).toMatchObject({ twoFactorEnabled: false });

    expectInvalidCode(await agent.post('/api/user/2fa/enable', { code: '000000' }));
    const wrongStep = codeAt(secret!, at(-90));
    expectInvalidCode(await agent.post('/api/user/2fa/enable', { code: wrongStep }));

    // Typed with a space in the middle, as apps show it.
    const code = codeAt(secret!, now);
    const enable = await agent.post('/api/user/2fa/enable', {
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(enable.statusCode).toBe(200);
    const codes = enable.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const recovery of codes) expect(recovery).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await agent.get('/api/user')).json()).toMatchObject({ twoFactorEnabled: true });

    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ totpSecret: secret, totpPendingSecret: null });
    const stored = await t.database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    const hashes = stored.map((code) => code.codeHash).join(' ');
    for (const recovery of codes) {
      expect(hashes).not.toContain(recovery.replace('-', ''));
    }
    // The account's address is not verified: nobody is mailed.
    const mails = await t.database.db.select().from(outbox);
    expect(mails.filter((mail) => mail.dedupeKey.includes(`:${user.id}:`))).toEqual([]);

    const again = await agent.post('/api/user/2fa/setup', { password });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      message: SECURITY_MESSAGES.twoFactorAlreadyOn,
    });
  });

  it('refuses to enable when nothing was set up', async () => {
    const { agent } = await signUp(t.app);
    const response = await agent.post('/api/user/2fa/enable', { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: SECURITY_MESSAGES.twoFactorNotSetUp });
  });

  it('mails a player whose address is verified when it goes on and off', async () => {
    const { agent, user, password } = await signUp(t.app, { email: 'verified@example.com' });
    await t.database.db.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id));
    await t.bus.publish({ type: 'user-changed', userId: user.id });
    const { secret } = (await agent.post('/api/user/2fa/setup', { password })).json<{
      secret: string;
    }>();
    expect(
      (await agent.post('/api/user/2fa/enable', { code: codeAt(secret, now) })).statusCode,
    ).toBe(200);
    now = at(30);
    const off = await agent.post('/api/user/2fa/disable', { password, code: codeAt(secret, now) });
    expect(off.statusCode).toBe(200);
    const mails = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, 'verified@example.com'));
    // Registration mailed the address its verification link first.
    expect(mails.map((mail) => mail.subject).slice(1)).toEqual([
      'Two-factor sign-in is on',
      'Two-factor sign-in has been turned off',
    ]);
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('answers {twoFactorRequired: true} to the password, with no session', async () => {
    const player = await playerWithTwoFactor();
    const { response, pending } = await passwordStep(player);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ twoFactorRequired: true });
    expect(cookieOf(response, 'sid')).toBeUndefined();
    expect(cookieOf(response, 'sid2fa')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/api/login',
      maxAge: 300,
    });
    // The pending token opens nothing, wherever it is presented.
    const asSession = await t.app.inject({
      method: 'GET',
      url: '/api/user',
      cookies: { sid: pending ?? '' },
    });
    expect(asSession.statusCode).toBe(401);
    const [row] = await t.database.db
      .select()
      .from(pendingSignIns)
      .where(eq(pendingSignIns.userId, player.id));
    expect(row?.tokenHash).not.toBe(pending);
    expect(row?.expiresAt.getTime()).toBe(now.getTime() + 5 * 60_000);
  });

  it('opens a session with a current code and forgets the pending sign-in', async () => {
    const player = await playerWithTwoFactor();
    now = at(30);
    const { pending } = await passwordStep(player);
    const response = await secondStep(pending, codeAt(player.secret, now));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: player.id, twoFactorEnabled: true });
    const sid = cookieOf(response, 'sid')?.value;
    expect(sid).toBeDefined();
    expect(cookieOf(response, 'sid2fa')?.value).toBe('');
    const agent = new Agent(t.app);
    agent.useCookie(sid);
    expect((await agent.get('/api/user')).json()).toMatchObject({ id: player.id });
    expectSignInExpired(await secondStep(pending, codeAt(player.secret, at(30))));
  });

  it('accepts codes one step either side of the clock, and refuses two steps', async () => {
    const player = await playerWithTwoFactor();
    now = at(300);
    const { pending } = await passwordStep(player);
    expectInvalidCode(await secondStep(pending, codeAt(player.secret, at(-60))));
    expectInvalidCode(await secondStep(pending, codeAt(player.secret, at(60))));
    expect((await secondStep(pending, codeAt(player.secret, at(-30)))).statusCode).toBe(200);
    expect((await signInWith(player, codeAt(player.secret, at(30)))).statusCode).toBe(200);
  });

  it('never accepts a code twice, nor one older than the last accepted', async () => {
    const player = await playerWithTwoFactor();
    now = at(60);
    const code = codeAt(player.secret, now);
    expect((await signInWith(player, code)).statusCode).toBe(200);
    expectInvalidCode(await signInWith(player, code));
    expectInvalidCode(await signInWith(player, codeAt(player.secret, at(-30))));
    // The code that enabled it is spent too.
    now = new Date(START);
    expectInvalidCode(await signInWith(player, codeAt(player.secret, now)));
  });

  it('accepts each recovery code once, however it is typed', async () => {
    const player = await playerWithTwoFactor();
    const [first, ...rest] = player.recoveryCodes;
    const shouted = ` ${first!.toUpperCase().replace('-', ' ')} `;
    expect((await signInWith(player, shouted)).statusCode).toBe(200);
    expectInvalidCode(await signInWith(player, first!));
    for (const code of rest) expect((await signInWith(player, code)).statusCode).toBe(200);
    const used = await t.database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, player.id));
    expect(used.every((code) => code.usedAt !== null)).toBe(true);
    expectInvalidCode(await signInWith(player, rest[0]!));
    // Someone else's recovery code is no use either.
    const other = await playerWithTwoFactor();
    expectInvalidCode(await signInWith(player, other.recoveryCodes[0]!));
  });

  // PGlite has one connection and runs the two requests of a round one after the other; on
  // PostgreSQL (TEST_DATABASE_URL) they race for real, hence several rounds.
  it('lets only one of two simultaneous sign-ins with the same code through', async () => {
    const player = await playerWithTwoFactor();
    for (let round = 1; round <= 5; round += 1) {
      now = at(30);
      const code = codeAt(player.secret, now);
      const [first, second] = await Promise.all([passwordStep(player), passwordStep(player)]);
      const answers = await Promise.all([
        secondStep(first.pending, code),
        secondStep(second.pending, code),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
      expect(answers.filter((answer) => cookieOf(answer, 'sid'))).toHaveLength(1);
    }
  });

  it('lets one of two simultaneous uses of a recovery code through', async () => {
    const player = await playerWithTwoFactor();
    for (const code of player.recoveryCodes.slice(0, 5)) {
      const [first, second] = await Promise.all([passwordStep(player), passwordStep(player)]);
      const answers = await Promise.all([
        secondStep(first.pending, code),
        secondStep(second.pending, code),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
    }
  });

  it('allows five tries per password step, then asks for the password again', async () => {
    const player = await playerWithTwoFactor();
    now = at(30);
    const { pending } = await passwordStep(player);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expectInvalidCode(await secondStep(pending, '000000'));
    }
    const fifth = await secondStep(pending, 'aaaaa-aaaaa');
    expectSignInExpired(fifth);
    expect(cookieOf(fifth, 'sid2fa')?.value).toBe('');
    const rows = await t.database.db
      .select()
      .from(pendingSignIns)
      .where(eq(pendingSignIns.userId, player.id));
    expect(rows).toEqual([]);
    expectSignInExpired(await secondStep(pending, codeAt(player.secret, now)));
    // A new password step starts over, and the right code still works.
    expect((await signInWith(player, codeAt(player.secret, now))).statusCode).toBe(200);
  });

  it('waits five minutes for the code, not a second longer', async () => {
    const player = await playerWithTwoFactor();
    const early = await passwordStep(player);
    now = at(5 * 60 - 1);
    expect((await secondStep(early.pending, codeAt(player.secret, now))).statusCode).toBe(200);

    const late = await passwordStep(player);
    now = at(5 * 60);
    expectSignInExpired(await secondStep(late.pending, codeAt(player.secret, now)));
  });

  it('refuses a second step without a pending sign-in, or with a forged one', async () => {
    expectSignInExpired(await secondStep(undefined, '123456'));
    expectSignInExpired(await secondStep('forged-token', '123456'));
  });

  it('throttles codes per address', async () => {
    const throttled = await createTestApp({
      database: t.database,
      clock: () => now,
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        twoFactorPerAddress: { name: 'two-factor:ip:test', limit: 3, windowMs: 60_000 },
      },
    });
    try {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const response = await throttled.app.inject({
          method: 'POST',
          url: '/api/login/2fa',
          payload: { code: '123456' },
        });
        expect(response.statusCode).toBe(401);
      }
      const limited = await throttled.app.inject({
        method: 'POST',
        url: '/api/login/2fa',
        payload: { code: '123456' },
      });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await throttled.close();
    }
  });
});

describe('SPEC login for a player without two-factor sign-in', () => {
  it('answers the user and starts the session at once, as before', async () => {
    const { user, password } = await signUp(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.username, password },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      username: user.username,
      twoFactorEnabled: false,
    });
    expect(response.json()).not.toHaveProperty('twoFactorRequired');
    expect(cookieOf(response, 'sid')?.value).toBeTruthy();
    expect(cookieOf(response, 'sid2fa')).toBeUndefined();
  });
});

describe('turning two-factor sign-in off', () => {
  it('needs the password and a code, then signs in with the password alone', async () => {
    const player = await playerWithTwoFactor();
    now = at(30);
    const code = codeAt(player.secret, now);

    const wrongPassword = await player.agent.post('/api/user/2fa/disable', {
      password: 'not-my-password',
      code,
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
    });
    expectInvalidCode(
      await player.agent.post('/api/user/2fa/disable', {
        password: player.password,
        code: '000000',
      }),
    );
    expect(
      (await player.agent.post('/api/user/2fa/disable', { password: player.password })).statusCode,
    ).toBe(400);

    const off = await player.agent.post('/api/user/2fa/disable', {
      password: player.password,
      code,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: player.id, twoFactorEnabled: false });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, player.id));
    expect(row).toMatchObject({ totpSecret: null, totpPendingSecret: null, totpLastStep: null });
    expect(
      await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, player.id)),
    ).toEqual([]);

    const login = await passwordStep(player);
    expect(login.response.json()).toMatchObject({ id: player.id });
    expect(cookieOf(login.response, 'sid')).toBeDefined();

    const again = await player.agent.post('/api/user/2fa/disable', {
      password: player.password,
      code,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: SECURITY_MESSAGES.twoFactorOff });
  });

  it('takes a recovery code instead of the app', async () => {
    const player = await playerWithTwoFactor();
    const off = await player.agent.post('/api/user/2fa/disable', {
      password: player.password,
      code: player.recoveryCodes[3],
    });
    expect(off.statusCode).toBe(200);
  });
});

describe('an admin deletes an account with two-factor sign-in', () => {
  it('erases its secret, recovery codes and pending sign-ins', async () => {
    const player = await playerWithTwoFactor();
    await passwordStep(player);
    const admin = await signInAdmin(t);
    const response = await admin.agent.request({
      method: 'DELETE',
      url: `/api/admin/users/${player.id}`,
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, player.id));
    expect(row).toMatchObject({ totpSecret: null, totpPendingSecret: null, totpLastStep: null });
    const db = t.database.db;
    expect(
      await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, player.id)),
    ).toEqual([]);
    expect(
      await db.select().from(pendingSignIns).where(eq(pendingSignIns.userId, player.id)),
    ).toEqual([]);
  });
});

describe('ADMIN_2FA_REQUIRED', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({
      database: t.database,
      clock: () => now,
      env: { ADMIN_2FA_REQUIRED: 'true' },
    });
  });
  afterAll(async () => {
    await strict.close();
  });

  it('keeps an admin without two-factor out of admin routes and admin views until it is on', async () => {
    const admin = await signInAdmin(strict);
    const refused = await admin.agent.get('/api/admin/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'TWO_FACTOR_SETUP_REQUIRED',
      message: SECURITY_MESSAGES.adminNeedsTwoFactor,
    });
    // Still an admin to the client, which shows the set-up on the admin page.
    expect((await admin.agent.get('/api/user')).json()).toMatchObject({
      isAdmin: true,
      twoFactorEnabled: false,
    });

    // Elsewhere the admin sees what a player sees: no other player's contact details.
    const creator = await signUp(strict.app, { email: 'creator@example.com' });
    await fund(strict.database, creator.user.id, 10_000n);
    const created = await creator.agent.post('/api/challenges', {
      game: 'Tekken 8',
      amount: 10,
      gamerTag: 'Kaz',
      phoneNumber: '+1 555 010 4000',
      console: 'PlayStation',
    });
    expect(created.statusCode).toBe(201);
    const challengeId = created.json<{ id: number }>().id;
    const asPlayer = await admin.agent.get(`/api/challenges/${challengeId}`);
    expect(JSON.stringify(asPlayer.json())).not.toContain('creator@example.com');

    const { secret } = (
      await admin.agent.post('/api/user/2fa/setup', { password: 'admin-password' })
    ).json<{ secret: string }>();
    const enable = await admin.agent.post('/api/user/2fa/enable', { code: codeAt(secret, now) });
    expect(enable.statusCode).toBe(200);
    expect((await admin.agent.get('/api/admin/users')).statusCode).toBe(200);
    const asAdmin = await admin.agent.get(`/api/challenges/${challengeId}`);
    expect(JSON.stringify(asAdmin.json())).toContain('creator@example.com');
  });
});
