import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ACCOUNT_CLOSE_MESSAGES,
  accountExportSchema,
  type AccountExport,
} from '#shared/contracts/account-data.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import { SESSION_ENDED_CLOSE_CODE } from '#shared/contracts/realtime.ts';
import { queryRows } from '#server/db/client.ts';
import { ledgerAccounts } from '#server/db/schema/ledger.ts';
import { licenseVerifications } from '#server/db/schema/license-verifications.ts';
import { sessions } from '#server/db/schema/sessions.ts';
import { users } from '#server/db/schema/users.ts';
import { formatUtc } from '#server/lib/format-time.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import { multipart, sampleFile } from '#tests/helpers/multipart.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  GENEROUS_RATE_LIMITS,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../../features/admin/testing/admin-agent.ts';
import { HOUSE_UNCLAIMED } from '../../features/ledger/accounts.ts';
import { deletedUsername } from './close-account.ts';
import { CLOSED_BY_PLAYER_NOTE } from './close-own-account.ts';

/**
 * The player's own data (docs/responsible-play.md, issue 19): a download of all of it, without a
 * secret in it, and closing the account with the money rules of an admin's deletion.
 */

let t: TestApp;
let socketUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

interface Player {
  agent: Agent;
  id: number;
  username: string;
  password: string;
  email: string;
}

async function player(fundCents = 50_000n): Promise<Player> {
  const username = uniqueUsername('mine');
  const email = `${username}@example.com`;
  const { agent, user, password } = await signUp(t.app, { username, email, state: 'NY' });
  if (fundCents > 0n) await fund(t.database, user.id, fundCents);
  return { agent, id: user.id, username, password, email };
}

const CHALLENGE = {
  game: 'Rocket League',
  gamerTag: 'Octane',
  phoneNumber: '5550106000',
  console: 'PC',
};

async function openChallenge(creator: Player, amount: number): Promise<number> {
  const response = await creator.agent.post('/api/challenges', { ...CHALLENGE, amount });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
}

async function acceptedChallenge(creator: Player, acceptor: Player, amount: number) {
  const id = await openChallenge(creator, amount);
  expect((await acceptor.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  return id;
}

/**
 * `winner` created, won and reported it: the credit waits for the loser's word (docs/fair-play.md).
 */
async function reportedWin(winner: Player, loser: Player, amount: number): Promise<number> {
  const id = await acceptedChallenge(winner, loser, amount);
  const submitted = await winner.agent.post(`/api/challenges/${id}/submit`, {
    creatorScore: 2,
    acceptorScore: 0,
    screenshot: 'https://example.com/win.png',
  });
  expect(submitted.statusCode).toBe(200);
  return id;
}

async function requestPayout(who: Player, amount: number): Promise<number> {
  const response = await who.agent.post('/api/payouts', {
    amount,
    paymentMethod: 'crypto',
    paymentDetails: 'BTC bc1qmydataaddress',
    phoneNumber: '5550106000',
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ payout: { id: number } }>().payout.id;
}

async function accountBalance(key: string): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, key));
  return row?.balanceCents ?? 0n;
}

/**
 * Opens the account socket: resolves `closed` with its close code whenever it closes, and keeps
 * the type of every message it received.
 */
async function openSocket(agent: Agent): Promise<{ closed: Promise<number>; received: string[] }> {
  const socket = new WebSocket(socketUrl, { headers: { cookie: `sid=${agent.sessionCookie}` } });
  const received: string[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)).type as string));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { closed, received };
}

/** A second browser signed in to the same account. */
async function secondBrowser(who: Player): Promise<Agent> {
  const agent = new Agent(t.app);
  const login = await agent.post('/api/login', { username: who.username, password: who.password });
  expect(login.statusCode).toBe(200);
  return agent;
}

describe('GET /api/me/export', () => {
  it("downloads the player's profile, challenges, transactions, payments, payouts and notifications", async () => {
    const me = await player(0n);
    const opponent = await player();
    // A card deposit through the sandbox: a payment, and a transaction.
    const intent = await me.agent.post('/api/create-payment-intent', { amount: 100 });
    const { clientSecret, paymentIntentId } = intent.json<{
      clientSecret: string;
      paymentIntentId: string;
    }>();
    expect(
      (
        await me.agent.post('/api/sandbox/card/confirm', {
          clientSecret,
          cardNumber: SANDBOX_TEST_CARDS.success,
        })
      ).statusCode,
    ).toBe(200);
    const mine = await openChallenge(me, 10);
    // The opponent's challenge that the player accepted: the creator is told, not the player.
    const theirs = await acceptedChallenge(opponent, me, 20);
    // The player's result on their own challenge, accepted by the opponent: news for the player.
    const won = await reportedWin(me, opponent, 5);
    expect((await opponent.agent.post(`/api/challenges/${won}/confirm`)).statusCode).toBe(200);
    // Card money is the card's until played through and 72 hours old (docs/chargebacks.md): the
    // payout is of money that came another way.
    await fund(t.database, me.id, 3000n);
    const payoutId = await requestPayout(me, 3);

    const response = await me.agent.get('/api/me/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="skillstake-data-${me.username}-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const data: AccountExport = accountExportSchema.parse(response.json());

    expect(data.profile).toMatchObject({
      id: me.id,
      username: me.username,
      email: me.email,
      state: 'NY',
      // $100 + $30 in, $10 + $20 + $5 staked, $9.50 won, $3 held for the payout.
      balance: 101.5,
    });
    expect(data.challenges.map((challenge) => challenge.id)).toEqual([won, theirs, mine]);
    const [wonView] = data.challenges;
    expect(wonView).toMatchObject({ status: 'completed', winnerId: me.id });
    // Seen as a player sees it: the opponent's name and number, never their e-mail or balance.
    expect(wonView?.acceptor).toEqual({
      id: opponent.id,
      username: opponent.username,
      phoneNumber: expect.any(String),
      record: expect.any(Object),
    });
    // Every wallet movement, newest first: deposit, three stakes, the prize, the $30, the payout
    // hold.
    expect(data.transactions.map((row) => [row.kind, row.amount])).toEqual([
      ['payout_hold', -3],
      ['deposit', 30],
      ['review_release', 9.5],
      ['stake', -5],
      ['stake', -20],
      ['stake', -10],
      ['deposit', 100],
    ]);
    expect(data.payments).toEqual([
      expect.objectContaining({
        method: 'card',
        providerPaymentId: paymentIntentId,
        status: 'credited',
        requestedAmount: 100,
        creditedAmount: 100,
      }),
    ]);
    expect(data.payouts).toEqual([
      expect.objectContaining({ id: payoutId, amount: 3, status: 'pending' }),
    ]);
    expect(data.notifications.map((notification) => notification.kind)).toEqual(
      expect.arrayContaining(['result_released']),
    );
    expect(data.notifications.every((n) => n.challengeId === null || n.challengeId === won)).toBe(
      true,
    );
  });

  it('holds no password hash, two-factor secret, recovery code, session or mailed-link token', async () => {
    const me = await player();
    const other = await player();
    await acceptedChallenge(me, other, 10);
    const setup = await me.agent.post('/api/user/2fa/setup', { password: me.password });
    const { secret } = setup.json<{ secret: string }>();
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const enable = await me.agent.post('/api/user/2fa/enable', { code });
    expect(enable.statusCode).toBe(200);
    const { recoveryCodes } = enable.json<{ recoveryCodes: string[] }>();

    const response = await me.agent.get('/api/me/export');
    expect(response.statusCode).toBe(200);
    const text = response.body;
    const [row] = await t.database.db.select().from(users).where(eq(users.id, me.id));
    const secrets = await queryRows<{ value: string }>(
      t.database.db,
      sql`select token_hash as value from auth_tokens where user_id = ${me.id}
          union all select code_hash from recovery_codes where user_id = ${me.id}
          union all select token_hash from sessions where user_id = ${me.id}`,
    );
    const forbidden = [
      me.password,
      row?.passwordHash,
      row?.totpSecret,
      secret,
      me.agent.sessionCookie,
      ...recoveryCodes,
      ...recoveryCodes.map((recovery) => recovery.replace('-', '')),
      ...secrets.map((found) => found.value),
      // The opponent's address is an admin's to see, not a player's.
      other.email,
    ];
    expect(forbidden.filter((value) => !value)).toEqual([]);
    for (const value of forbidden) expect(text).not.toContain(value);
    for (const key of ['passwordHash', 'password_hash', 'totpSecret', 'token', 'secret']) {
      expect(text).not.toContain(`"${key}"`);
    }
    expect(accountExportSchema.parse(response.json()).profile.twoFactorEnabled).toBe(true);
  });

  it('is for the signed-in player only', async () => {
    expect((await new Agent(t.app).get('/api/me/export')).statusCode).toBe(401);
  });
});

describe('POST /api/me/close', () => {
  it('refuses a wrong password the way every password check does, and changes nothing', async () => {
    const me = await player();
    const response = await me.agent.post('/api/me/close', { password: 'not-my-password' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: SECURITY_MESSAGES.currentPasswordWrong,
      fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
    });
    expect((await me.agent.get('/api/user')).json()).toMatchObject({
      username: me.username,
      balance: 500,
    });
  });

  it('is refused while money is in escrow, under review or on its way out, saying where', async () => {
    const me = await player();
    const other = await player();
    const open = await openChallenge(me, 10);
    const accepted = await acceptedChallenge(other, me, 20);
    const underReview = await reportedWin(me, other, 5);
    const disputed = await reportedWin(other, me, 7);
    expect(
      (
        await me.agent.post(`/api/challenges/${disputed}/dispute`, {
          reason: 'I won that match',
        })
      ).statusCode,
    ).toBe(200);
    const payoutId = await requestPayout(me, 4);
    const [review] = await t.database.db
      .select({ endsAt: sql<string>`review_ends_at::text` })
      .from(sql`challenges`)
      .where(sql`id = ${underReview}`);
    const reviewEnd = formatUtc(new Date(review!.endsAt));

    const response = await me.agent.post('/api/me/close', { password: me.password });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'MONEY_HELD',
      message: ACCOUNT_CLOSE_MESSAGES.moneyHeld([
        ACCOUNT_CLOSE_MESSAGES.openChallenge(open),
        ACCOUNT_CLOSE_MESSAGES.acceptedChallenge(accepted),
        ACCOUNT_CLOSE_MESSAGES.winningsUnderReview(underReview, reviewEnd),
        ACCOUNT_CLOSE_MESSAGES.disputedChallenge(disputed),
        ACCOUNT_CLOSE_MESSAGES.payoutPending(payoutId, '$4.00'),
      ]),
    });
    // Nothing moved and nobody was signed out.
    expect((await me.agent.get('/api/user')).statusCode).toBe(200);
    expect((await me.agent.get(`/api/challenges/${open}`)).json()).toMatchObject({
      status: 'open',
    });
    expect(
      (await t.database.db.select().from(users).where(eq(users.id, me.id)))[0]?.deletedAt,
    ).toBeNull();
  });

  it('is refused for a stake in escrow alone, and allowed once the challenge is cancelled', async () => {
    const me = await player();
    const open = await openChallenge(me, 25);
    const refused = await me.agent.post('/api/me/close', { password: me.password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      ACCOUNT_CLOSE_MESSAGES.moneyHeld([ACCOUNT_CLOSE_MESSAGES.openChallenge(open)]),
    );
    expect((await me.agent.post(`/api/challenges/${open}/cancel`)).statusCode).toBe(200);
    expect((await me.agent.post('/api/me/close', { password: me.password })).statusCode).toBe(200);
  });

  it("erases the gamer tag and phone number typed on the player's challenges (issue 35)", async () => {
    const me = await player();
    const opponent = await player();
    const mine = await reportedWin(me, opponent, 5);
    expect((await opponent.agent.post(`/api/challenges/${mine}/confirm`)).statusCode).toBe(200);
    const before = (await opponent.agent.get(`/api/challenges/${mine}`)).json();
    expect(before).toMatchObject({
      gamerTag: CHALLENGE.gamerTag,
      phoneNumber: CHALLENGE.phoneNumber,
    });

    expect((await me.agent.post('/api/me/close', { password: me.password })).statusCode).toBe(200);
    const { agent: admin } = await signInAdmin(t);
    for (const viewer of [opponent.agent, admin]) {
      const after = (await viewer.get(`/api/challenges/${mine}`)).json();
      expect(after).toMatchObject({ gamerTag: '', phoneNumber: null });
      expect(after.creator.phoneNumber ?? null).toBeNull();
    }
    const exported = (await opponent.agent.get('/api/me/export')).body;
    expect(exported).toContain(`"id":${mine}`);
    expect(exported).not.toContain(CHALLENGE.gamerTag);
    expect(exported).not.toContain(CHALLENGE.phoneNumber);
  });

  it('closes the account: every session and socket ends, the balance goes unclaimed, the person is erased, the audit names the player', async () => {
    const me = await player(12_345n);
    const other = await player();
    // A result the player lost and confirmed: history, but no money of theirs held.
    const lost = await reportedWin(other, me, 10);
    expect((await me.agent.post(`/api/challenges/${lost}/confirm`)).statusCode).toBe(200);
    // A licence waiting for review is decided with the closing: nobody is left to verify.
    const license = multipart('driversLicense', 'id.pdf', 'application/pdf', sampleFile('pdf'));
    const uploaded = await me.agent.request({
      method: 'POST',
      url: '/api/user/upload-license',
      payload: license.payload,
      headers: license.headers,
    });
    expect(uploaded.statusCode).toBe(201);
    const elsewhere = await secondBrowser(me);
    const socket = await openSocket(me.agent);
    const otherSocket = await openSocket(elsewhere);
    const unclaimedBefore = await accountBalance(HOUSE_UNCLAIMED);

    const response = await me.agent.post('/api/me/close', { password: me.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: ACCOUNT_CLOSE_MESSAGES.closed, unclaimed: 113.45 });
    // This browser's cookie is cleared; every session of the account is gone.
    const cleared = response.cookies.find((cookie) => cookie.name === 'sid');
    expect(cleared?.value).toBe('');
    expect(await socket.closed).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(await otherSocket.closed).toBe(SESSION_ENDED_CLOSE_CODE);
    // The sockets were shut before the news of the sweep: no "your balance is $0" for nobody.
    expect([...socket.received, ...otherSocket.received]).not.toContain('BALANCE_UPDATE');
    expect((await elsewhere.get('/api/user')).statusCode).toBe(401);
    expect((await elsewhere.get('/api/me/export')).statusCode).toBe(401);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, me.id))).toEqual(
      [],
    );
    const login = await new Agent(t.app).post('/api/login', {
      username: me.username,
      password: me.password,
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe('INVALID_CREDENTIALS');

    // The money rules of an admin's deletion: the wallet is swept to unclaimed funds.
    expect(await balanceOf(t.database, me.id)).toBe(0n);
    expect(await accountBalance(HOUSE_UNCLAIMED)).toBe(unclaimedBefore + 11_345n);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, me.id));
    expect(row).toMatchObject({
      username: deletedUsername(me.id),
      email: null,
      phoneNumber: null,
      state: null,
      deletedAt: expect.any(Date),
    });
    // The opponent's record of the match stays.
    expect((await other.agent.get(`/api/challenges/${lost}`)).json()).toMatchObject({
      status: 'completed',
      winnerId: other.id,
    });

    const [verification] = await t.database.db
      .select()
      .from(licenseVerifications)
      .where(eq(licenseVerifications.userId, me.id));
    expect(verification).toMatchObject({
      status: 'rejected',
      note: CLOSED_BY_PLAYER_NOTE,
      reviewedBy: me.id,
    });
    const [audit] = await auditEntriesFor(t.database, { type: 'user', id: me.id }, 'user.close');
    expect(audit).toMatchObject({
      actorUserId: me.id,
      details: { unclaimedCents: '11345', rejectedVerificationIds: [verification!.id] },
    });
    expect(JSON.stringify(audit?.details)).not.toContain(me.username);
    // The name is free again.
    expect((await signUp(t.app, { username: me.username })).user.id).not.toBe(me.id);
  });

  it("refuses an admin's own account: another admin deletes it", async () => {
    const { agent } = await signInAdmin(t);
    const response = await agent.post('/api/me/close', { password: 'admin-password' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'FORBIDDEN',
      message: ACCOUNT_CLOSE_MESSAGES.adminAccount,
    });
    expect((await agent.get('/api/admin/users')).statusCode).toBe(200);
  });

  it('counts password tries per account, like the other password checks', async () => {
    const strict = await createTestApp({
      database: t.database,
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        accountClosePerUser: { name: 'account-close:user', limit: 2, windowMs: 15 * 60_000 },
      },
    });
    try {
      const { agent, password } = await signUp(strict.app);
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        expect((await agent.post('/api/me/close', { password: 'wrong-guess' })).statusCode).toBe(
          400,
        );
      }
      // Past the limit even the right password waits: guessing gains nothing.
      const throttled = await agent.post('/api/me/close', { password });
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          /^Too many attempts to close the account\. Please try again in \d+ minutes?\.$/,
        ),
      });
      expect((await agent.get('/api/user')).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
