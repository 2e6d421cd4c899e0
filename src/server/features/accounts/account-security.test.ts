import { createHash } from 'node:crypto';
import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_MESSAGES, type SessionView } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { knownDevices } from '#server/db/schema/account-security.ts';
import { outbox } from '#server/db/schema/outbox.ts';
import { sessions } from '#server/db/schema/sessions.ts';
import { rateLimitHits } from '#server/db/schema/rate-limits.ts';
import { users } from '#server/db/schema/users.ts';
import { newTotpSecret } from '#server/features/accounts/two-factor.ts';
import { signInAdmin } from '#server/features/admin/testing/admin-agent.ts';
import { fund } from '#tests/helpers/money.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import {
  Agent,
  createTestApp,
  GENEROUS_RATE_LIMITS,
  markEmailVerified,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

let t: TestApp;
let now = new Date('2026-11-25T12:00:00Z');

beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
});
afterAll(async () => {
  await t.close();
});

function later(ms: number): void {
  now = new Date(now.getTime() + ms);
}

let mailCounter = 0;
function uniqueEmail(): string {
  mailCounter += 1;
  return `security${process.pid % 1000}_${mailCounter}@example.com`;
}

/** The mails queued for `recipient`, newest first. */
function mailsTo(recipient: string) {
  return t.database.db
    .select()
    .from(outbox)
    .where(eq(outbox.recipient, recipient))
    .orderBy(desc(outbox.id));
}

/** The token of the newest link to `path` mailed to `recipient`, waiting for it to be queued. */
async function mailedToken(recipient: string, path: '/reset-password' | '/verify-email') {
  let token: string | undefined;
  await expect
    .poll(
      async () => {
        for (const mail of await mailsTo(recipient)) {
          const match = new RegExp(`${path}\\?token=([\\w%-]+)`).exec(mail.body);
          if (match?.[1]) {
            token = decodeURIComponent(match[1]);
            return true;
          }
        }
        return false;
      },
      { timeout: 5_000, interval: 20 },
    )
    .toBe(true);
  return token as string;
}

/** A player with a verified address, signed in on one agent. */
async function verifiedPlayer(password = 'correct-horse') {
  const email = uniqueEmail();
  const player = await signUp(t.app, { email, password });
  const token = await mailedToken(email, '/verify-email');
  const verified = await new Agent(t.app).post('/api/user/verify-email', { token });
  expect(verified.statusCode).toBe(200);
  return { ...player, email };
}

async function signIn(username: string, password: string, headers: Record<string, string> = {}) {
  const agent = new Agent(t.app);
  const response = await agent.request({
    method: 'POST',
    url: '/api/login',
    payload: { username, password },
    headers,
  });
  return { agent, response };
}

describe('password change (docs/accounts.md#account-security)', () => {
  it('needs the current password, keeps this session, ends the others and mails the player', async () => {
    const player = await verifiedPlayer();
    const other = await signIn(player.user.username, 'correct-horse');
    expect((await other.agent.get('/api/user')).statusCode).toBe(200);

    const wrong = await player.agent.post('/api/user/password', {
      currentPassword: 'not-my-password',
      newPassword: 'battery-staple',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { currentPassword: SECURITY_MESSAGES.currentPasswordWrong },
    });
    const short = await player.agent.post('/api/user/password', {
      currentPassword: 'correct-horse',
      newPassword: 'abc',
    });
    expect(short.json()).toMatchObject({
      fields: { newPassword: 'Password must be at least 6 characters' },
    });

    const changed = await player.agent.post('/api/user/password', {
      currentPassword: 'correct-horse',
      newPassword: 'battery-staple',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ message: SECURITY_MESSAGES.passwordChanged });
    expect((await player.agent.get('/api/user')).statusCode).toBe(200);
    expect((await other.agent.get('/api/user')).statusCode).toBe(401);
    expect((await signIn(player.user.username, 'correct-horse')).response.statusCode).toBe(401);
    expect((await signIn(player.user.username, 'battery-staple')).response.statusCode).toBe(200);
    const [mail] = await mailsTo(player.email);
    expect(mail).toMatchObject({ subject: 'Your SkillStake password was changed' });
  });

  it('mails nothing to an address that is not verified', async () => {
    const email = uniqueEmail();
    const player = await signUp(t.app, { email });
    const changed = await player.agent.post('/api/user/password', {
      currentPassword: player.password,
      newPassword: 'battery-staple',
    });
    expect(changed.statusCode).toBe(200);
    const subjects = (await mailsTo(email)).map((mail) => mail.subject);
    expect(subjects).toEqual(['Confirm your e-mail address for SkillStake']);
  });
});

describe('forgotten password (docs/accounts.md#account-security)', () => {
  it('answers the same words for a verified, an unverified and an unknown account', async () => {
    const verified = await verifiedPlayer();
    const unverifiedEmail = uniqueEmail();
    const unverified = await signUp(t.app, { email: unverifiedEmail });
    const answers = [];
    for (const username of [verified.user.username, unverified.user.username, 'nobody_here']) {
      const response = await new Agent(t.app).post('/api/password-reset', { username });
      answers.push({ status: response.statusCode, body: response.body });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({
      status: 202,
      body: JSON.stringify({ message: SECURITY_MESSAGES.resetRequested }),
    });
    await mailedToken(verified.email, '/reset-password');
    const unverifiedMails = (await mailsTo(unverifiedEmail)).map((mail) => mail.subject);
    expect(unverifiedMails).not.toContain('Reset your SkillStake password');
  });

  it('a mailed link sets the password once, signs in and ends every other session', async () => {
    const player = await verifiedPlayer();
    await new Agent(t.app).post('/api/password-reset', { username: player.user.username });
    const token = await mailedToken(player.email, '/reset-password');

    const browser = new Agent(t.app);
    const done = await browser.post('/api/password-reset/complete', {
      token,
      newPassword: 'brand-new-secret',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json<PublicUser>().username).toBe(player.user.username);
    expect((await browser.get('/api/user')).statusCode).toBe(200);
    expect((await player.agent.get('/api/user')).statusCode).toBe(401);
    expect((await signIn(player.user.username, 'correct-horse')).response.statusCode).toBe(401);
    expect((await signIn(player.user.username, 'brand-new-secret')).response.statusCode).toBe(200);
    expect((await mailsTo(player.email)).map((mail) => mail.subject)).toContain(
      'Your SkillStake password was reset',
    );

    const again = await new Agent(t.app).post('/api/password-reset/complete', {
      token,
      newPassword: 'another-secret',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'INVALID_TOKEN',
      message: SECURITY_MESSAGES.invalidLink,
    });
  });

  it('with two-factor on, a reset link sets the password but the code is still asked for', async () => {
    const player = await verifiedPlayer();
    await t.database.db
      .update(users)
      .set({ totpSecret: newTotpSecret() })
      .where(eq(users.id, player.user.id));
    await t.bus.publish({ type: 'user-changed', userId: player.user.id });
    await new Agent(t.app).post('/api/password-reset', { username: player.user.username });
    const token = await mailedToken(player.email, '/reset-password');
    // The player's own browser, which has its device cookie: the answer sets only the pending one.
    const browser = new Agent(t.app, player.agent.deviceId);
    const done = await browser.post('/api/password-reset/complete', {
      token,
      newPassword: 'new-but-not-enough',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ twoFactorRequired: true });
    expect(browser.sessionCookie).toBeUndefined();
    expect(done.cookies.map((cookie) => cookie.name)).toEqual(['sid2fa']);
    expect((await player.agent.get('/api/user')).statusCode).toBe(401);
    const login = await signIn(player.user.username, 'new-but-not-enough');
    expect(login.response.json()).toEqual({ twoFactorRequired: true });
  });

  it('a link works for 30 minutes and no longer', async () => {
    const player = await verifiedPlayer();
    await new Agent(t.app).post('/api/password-reset', { username: player.user.username });
    const first = await mailedToken(player.email, '/reset-password');
    later(30 * 60_000 + 1);
    const expired = await new Agent(t.app).post('/api/password-reset/complete', {
      token: first,
      newPassword: 'too-late-now',
    });
    expect(expired.json()).toMatchObject({ code: 'INVALID_TOKEN' });

    await new Agent(t.app).post('/api/password-reset', { username: player.user.username });
    await expect.poll(async () => (await mailsTo(player.email)).length).toBe(3);
    const second = await mailedToken(player.email, '/reset-password');
    expect(second).not.toBe(first);
    later(29 * 60_000);
    const inTime = await new Agent(t.app).post('/api/password-reset/complete', {
      token: second,
      newPassword: 'just-in-time',
    });
    expect(inTime.statusCode).toBe(200);
  });

  it('a link mailed to an address the account has since changed opens nothing', async () => {
    const player = await verifiedPlayer();
    await new Agent(t.app).post('/api/password-reset', { username: player.user.username });
    const token = await mailedToken(player.email, '/reset-password');
    await player.agent.post('/api/user/update-email', { email: uniqueEmail() });
    const response = await new Agent(t.app).post('/api/password-reset/complete', {
      token,
      newPassword: 'stolen-mailbox',
    });
    expect(response.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses a made-up token and a bad new password with their messages', async () => {
    const madeUp = await new Agent(t.app).post('/api/password-reset/complete', {
      token: 'a'.repeat(43),
      newPassword: 'whatever-it-is',
    });
    expect(madeUp.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    const weak = await new Agent(t.app).post('/api/password-reset/complete', {
      token: 'a'.repeat(43),
      newPassword: 'abc',
    });
    expect(weak.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { newPassword: 'Password must be at least 6 characters' },
    });
  });

  it('is throttled per address with a 429, and per account by mailing no more', async () => {
    const limited = await createTestApp({
      clock: () => now,
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        passwordResetPerAccount: { name: 'password-reset:user', limit: 2, windowMs: 3_600_000 },
        passwordResetPerAddress: { name: 'password-reset:ip', limit: 4, windowMs: 3_600_000 },
      },
    });
    try {
      const email = uniqueEmail();
      const player = await signUp(limited.app, { email });
      await markEmailVerified(limited.database, player.user.id);
      const ask = (remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/password-reset',
          payload: { username: player.user.username },
          remoteAddress,
        });
      const statuses = [];
      for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        statuses.push((await ask(address)).statusCode);
      }
      expect(statuses).toEqual([202, 202, 202]);
      const resetMails = async () =>
        (
          await limited.database.db
            .select()
            .from(outbox)
            .where(and(eq(outbox.recipient, email), like(outbox.dedupeKey, 'password-reset:%')))
        ).length;
      await expect.poll(resetMails).toBe(2);

      const fromOne = [];
      for (let i = 0; i < 5; i += 1) fromOne.push((await ask('203.0.113.9')).statusCode);
      expect(fromOne).toEqual([202, 202, 202, 202, 429]);
      expect(await resetMails()).toBe(2);
    } finally {
      await limited.close();
    }
  });

  it('counts every spelling of a name against the account it finds, and none past the limit (issue 35)', async () => {
    const limited = await createTestApp({
      clock: () => now,
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        passwordResetPerAccount: { name: 'password-reset:user', limit: 3, windowMs: 3_600_000 },
      },
    });
    try {
      const email = uniqueEmail();
      const username = uniqueUsername('mini');
      const player = await signUp(limited.app, { email, username });
      await markEmailVerified(limited.database, player.user.id);
      // The name as typed, in capitals, and with a dotted capital I that PostgreSQL lowers to i.
      const spellings = [
        username,
        username.toUpperCase(),
        username.replace('i', 'I'),
        username.replace('i', '\u0130'),
        username.replace(/i/g, '\u0130'),
        `${username.slice(0, 1).toUpperCase()}${username.slice(1)}`,
      ];
      for (const spelling of spellings) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/password-reset',
          payload: { username: spelling },
        });
        expect(response.statusCode).toBe(202);
      }
      // The mails are decided after the answers: wait until each request that found the
      // account has been counted against it (the look-alikes find none and count nowhere).
      const counted = async () => {
        const [row] = await limited.database.db
          .select({ hits: rateLimitHits.hits })
          .from(rateLimitHits)
          .where(eq(rateLimitHits.bucket, `password-reset:user:user:${player.user.id}`));
        return row?.hits ?? 0;
      };
      await expect.poll(counted).toBe(4);
      const resetMails = await limited.database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.recipient, email), like(outbox.dedupeKey, 'password-reset:%')));
      expect(resetMails).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });

  it('takes as long whether or not the account exists (medians of interleaved requests)', async () => {
    const player = await verifiedPlayer();
    const timings: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const ask = async (kind: 'known' | 'unknown') => {
      const started = process.hrtime.bigint();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/password-reset',
        payload: { username: kind === 'known' ? player.user.username : uniqueUsername('ghost') },
      });
      timings[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
      expect(response.statusCode).toBe(202);
      // Whatever a request left running settles before the next is timed.
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    for (let round = 0; round < 30; round += 1) {
      await ask(round % 2 === 0 ? 'known' : 'unknown');
      await ask(round % 2 === 0 ? 'unknown' : 'known');
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const known = median(timings.known);
    const unknown = median(timings.unknown);
    expect(Math.abs(known - unknown)).toBeLessThan(Math.max(known, unknown) * 0.25 + 0.5);
  });
});

describe('e-mail verification (docs/accounts.md#account-security)', () => {
  it('registration mails a link; the link verifies the address once', async () => {
    const email = uniqueEmail();
    const player = await signUp(t.app, { email });
    expect((await player.agent.get('/api/user')).json<PublicUser>().emailVerified).toBe(false);
    const token = await mailedToken(email, '/verify-email');
    const verified = await new Agent(t.app).post('/api/user/verify-email', { token });
    expect(verified.json()).toEqual({ message: SECURITY_MESSAGES.emailVerified });
    expect((await player.agent.get('/api/user')).json<PublicUser>().emailVerified).toBe(true);
    const again = await new Agent(t.app).post('/api/user/verify-email', { token });
    expect(again.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('a link works for 24 hours', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email });
    const token = await mailedToken(email, '/verify-email');
    later(24 * 60 * 60_000 + 1);
    const expired = await new Agent(t.app).post('/api/user/verify-email', { token });
    expect(expired.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it("the SPEC's Update Email makes a new address unverified and mails it a link", async () => {
    const player = await verifiedPlayer();
    const oldToken = await mailedToken(player.email, '/verify-email');
    const same = await player.agent.post('/api/user/update-email', { email: player.email });
    expect(same.json<PublicUser>()).toMatchObject({ email: player.email, emailVerified: true });

    const next = uniqueEmail();
    const changed = await player.agent.post('/api/user/update-email', { email: next });
    expect(changed.statusCode).toBe(200);
    // The old, proven address is told, in case it was not the player.
    expect((await mailsTo(player.email))[0]).toMatchObject({
      subject: 'The e-mail address of your SkillStake account was changed',
    });
    expect((await mailsTo(player.email))[0]?.body).toContain(next);
    expect(changed.json<PublicUser>()).toMatchObject({ email: next, emailVerified: false });
    expect(
      (await new Agent(t.app).post('/api/user/verify-email', { token: oldToken })).statusCode,
    ).toBe(400);
    const token = await mailedToken(next, '/verify-email');
    expect((await new Agent(t.app).post('/api/user/verify-email', { token })).statusCode).toBe(200);
    expect((await player.agent.get('/api/user')).json<PublicUser>().emailVerified).toBe(true);
  });

  it('RESEND mails a fresh link, and says why when there is nothing to verify', async () => {
    const none = await signUp(t.app, { email: '' });
    const noEmail = await none.agent.post('/api/user/verify-email/resend');
    expect(noEmail.json()).toMatchObject({ message: SECURITY_MESSAGES.noEmail });

    const email = uniqueEmail();
    const player = await signUp(t.app, { email });
    const resent = await player.agent.post('/api/user/verify-email/resend');
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toEqual({ message: SECURITY_MESSAGES.verificationSent });
    expect((await mailsTo(email)).length).toBe(2);
    const token = await mailedToken(email, '/verify-email');
    await new Agent(t.app).post('/api/user/verify-email', { token });
    const already = await player.agent.post('/api/user/verify-email/resend');
    expect(already.statusCode).toBe(409);
    expect(already.json()).toMatchObject({ message: SECURITY_MESSAGES.alreadyVerified });
  });

  it('payout notices go only to a verified address', async () => {
    const admin = await signInAdmin(t);
    const payout = async (verified: boolean) => {
      const email = uniqueEmail();
      const player = await signUp(t.app, { email });
      if (verified) await markEmailVerified(t.database, player.user.id);
      await fund(t.database, player.user.id, 5_000n);
      const requested = await player.agent.post('/api/payouts', {
        amount: 20,
        paymentMethod: 'crypto',
        paymentDetails: 'BTC bc1qexampleaddress',
        phoneNumber: '+1 555 010 4000',
      });
      expect(requested.statusCode).toBe(201);
      const id = requested.json<{ payout: { id: number } }>().payout.id;
      const done = await admin.agent.post(`/api/admin/payouts/${id}/complete`, { note: 'sent' });
      expect(done.json()).toMatchObject({ status: 'completed' });
      return (await mailsTo(email)).filter((mail) => mail.dedupeKey.startsWith('payout-'));
    };
    expect(await payout(true)).toHaveLength(1);
    expect(await payout(false)).toHaveLength(0);
  });
});

describe('devices (docs/accounts.md#account-security)', () => {
  it('lists the sessions with browser and address, and signs out one or all the others', async () => {
    const email = uniqueEmail();
    const player = await signUp(t.app, { email });
    const phone = await signIn(player.user.username, player.password, {
      'user-agent': SAFARI_IPHONE,
    });
    const laptop = await signIn(player.user.username, player.password, {
      'user-agent': CHROME_WINDOWS,
    });
    const listed = (await laptop.agent.get('/api/user/sessions')).json<SessionView[]>();
    expect(listed).toHaveLength(3);
    expect(listed[0]).toMatchObject({
      current: true,
      browser: 'Chrome 131 on Windows',
      address: '127.0.0.1',
    });
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    const phoneSession = listed.find((session) => session.browser === 'Safari 17 on iOS');
    expect(phoneSession).toBeDefined();

    // Nobody ends a session that is not theirs: it is "not found", as an unknown one.
    const stranger = await signUp(t.app);
    const foreign = await stranger.agent.request({
      method: 'DELETE',
      url: `/api/user/sessions/${phoneSession!.id}`,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await phone.agent.get('/api/user')).statusCode).toBe(200);

    const ended = await laptop.agent.request({
      method: 'DELETE',
      url: `/api/user/sessions/${phoneSession!.id}`,
    });
    expect(ended.statusCode).toBe(204);
    expect((await phone.agent.get('/api/user')).statusCode).toBe(401);

    const others = await laptop.agent.post('/api/user/sessions/revoke-others');
    expect(others.json()).toEqual({ revoked: 1 });
    expect((await player.agent.get('/api/user')).statusCode).toBe(401);
    const left = (await laptop.agent.get('/api/user/sessions')).json<SessionView[]>();
    expect(left.map((session) => session.current)).toEqual([true]);
  });

  it('shows one row per device, and signing a device out ends its every session', async () => {
    const player = await signUp(t.app);
    // The same browser signed in again without signing out (its session cookie lost): two
    // sessions, one device.
    const again = new Agent(t.app, player.agent.deviceId);
    const second = await again.request({
      method: 'POST',
      url: '/api/login',
      payload: { username: player.user.username, password: player.password },
      headers: { 'user-agent': CHROME_WINDOWS },
    });
    expect(second.statusCode).toBe(200);
    const laptop = await signIn(player.user.username, player.password, {
      'user-agent': SAFARI_IPHONE,
    });
    const listed = (await laptop.agent.get('/api/user/sessions')).json<SessionView[]>();
    expect(listed.map((row) => [row.current, row.browser])).toEqual([
      [true, 'Safari 17 on iOS'],
      [false, 'Chrome 131 on Windows'],
    ]);
    const device = listed[1]!;
    const sessionsOf = () =>
      t.database.db.select().from(sessions).where(eq(sessions.userId, player.user.id));
    const oldest = (await sessionsOf()).map((row) => row.createdAt.toISOString()).sort()[0];
    expect(device.createdAt).toBe(oldest);
    expect(
      (await laptop.agent.request({ method: 'DELETE', url: `/api/user/sessions/${device.id}` }))
        .statusCode,
    ).toBe(204);
    expect((await player.agent.get('/api/user')).statusCode).toBe(401);
    expect((await again.get('/api/user')).statusCode).toBe(401);
    expect(await sessionsOf()).toHaveLength(1);
  });

  it('leaves out sessions that ended by their idle timeout', async () => {
    const player = await signUp(t.app);
    const laptop = await signIn(player.user.username, player.password, {
      'user-agent': CHROME_WINDOWS,
    });
    // Eleven hours on, only the laptop is used; two more, and the first session is 13 h idle
    // (the idle limit is 12 h) while the laptop's was seen two hours ago.
    later(11 * 60 * 60_000);
    expect((await laptop.agent.get('/api/user')).statusCode).toBe(200);
    later(2 * 60 * 60_000);
    const listed = (await laptop.agent.get('/api/user/sessions')).json<SessionView[]>();
    expect(listed.map((session) => session.browser)).toEqual(['Chrome 131 on Windows']);
  });

  it('mails a verified player about a sign-in on a new device, once, whatever its browser or address', async () => {
    const player = await verifiedPlayer();
    const signInOn = (device: Agent, userAgent: string, remoteAddress: string) =>
      device.request({
        method: 'POST',
        url: '/api/login',
        payload: { username: player.user.username, password: 'correct-horse' },
        headers: { 'user-agent': userAgent },
        remoteAddress,
      });
    const newSignIns = async () =>
      (await mailsTo(player.email)).filter((mail) => mail.dedupeKey.startsWith('new-sign-in:'));

    // Registration's device is the account's first: no mail for it.
    expect(await newSignIns()).toHaveLength(0);
    const laptop = new Agent(t.app);
    await signInOn(laptop, CHROME_WINDOWS, '198.51.100.7');
    const [first] = await newSignIns();
    expect(first?.body).toContain('Browser: Chrome 131 on Windows');
    expect(first?.body).toContain('Address: 198.51.100.7');
    // The same device is known from anywhere: a trip, a new provider.
    later(1_000);
    await signInOn(laptop, CHROME_WINDOWS, '203.0.113.50');
    expect(await newSignIns()).toHaveLength(1);
    // Another device is news, though its browser build and network are the laptop's: millions of
    // players send that User-Agent, and a thief can sit in the same café.
    later(1_000);
    await signInOn(new Agent(t.app), CHROME_WINDOWS, '198.51.100.7');
    expect(await newSignIns()).toHaveLength(2);
  });

  it('knows a browser and network known before device ids on its first sign-in with one, once', async () => {
    const player = await verifiedPlayer();
    // What a sign-in before device ids recorded: Chrome on Windows, from 198.51.100.0/24.
    const legacyKey = createHash('sha256')
      .update(`Chrome|Windows|198.51.100.0/24`)
      .digest('base64url');
    await t.database.db.insert(knownDevices).values({
      userId: player.user.id,
      deviceKey: legacyKey,
      firstSeenAt: new Date(),
    });
    const signInOn = (device: Agent) =>
      device.request({
        method: 'POST',
        url: '/api/login',
        payload: { username: player.user.username, password: 'correct-horse' },
        headers: { 'user-agent': CHROME_WINDOWS },
        remoteAddress: '198.51.100.9',
      });
    const newSignIns = async () =>
      (await mailsTo(player.email)).filter((mail) => mail.dedupeKey.startsWith('new-sign-in:'));
    await signInOn(new Agent(t.app));
    expect(await newSignIns()).toHaveLength(0);
    const keys = await t.database.db
      .select({ deviceKey: knownDevices.deviceKey })
      .from(knownDevices)
      .where(eq(knownDevices.userId, player.user.id));
    expect(keys.map((key) => key.deviceKey)).not.toContain(legacyKey);
    later(1_000);
    await signInOn(new Agent(t.app));
    expect(await newSignIns()).toHaveLength(1);
  });
});

describe.runIf(onPostgres)('account security races on PostgreSQL', () => {
  it('one reset link used twice at once sets the password once', async () => {
    const player = await verifiedPlayer();
    await new Agent(t.app).post('/api/password-reset', { username: player.user.username });
    const token = await mailedToken(player.email, '/reset-password');
    const results = await Promise.all(
      ['first-choice', 'second-choice'].map((newPassword) =>
        new Agent(t.app).post('/api/password-reset/complete', { token, newPassword }),
      ),
    );
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 400]);
    const winner = results[0]!.statusCode === 200 ? 'first-choice' : 'second-choice';
    expect((await signIn(player.user.username, winner)).response.statusCode).toBe(200);
  });
});
