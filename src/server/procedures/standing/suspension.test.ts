import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import type { CreateChallengeBody } from '#shared/contracts/challenges.ts';
import type { NotificationList } from '#shared/contracts/notifications.ts';
import { createAppContext } from '#server/context.ts';
import { queryRows } from '#server/db/client.ts';
import { challenges } from '#server/db/schema/challenges.ts';
import { users } from '#server/db/schema/users.ts';
import type { AppEvent } from '#server/lib/event-bus.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import { withTwoInstances } from '#tests/helpers/two-instances.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { createChallengeCall } from '../../features/challenges/repository.ts';
import { createChallenge } from '../../features/challenges/service.ts';
import type { Ledger } from '../../features/ledger/ledger.ts';
import { suspendUser } from './suspension.ts';
import { auditEntriesFor, signInAdmin } from '../../features/admin/testing/admin-agent.ts';

/**
 * Suspension (docs/fair-play.md): a suspended player may sign in, read and withdraw, but not
 * deposit, create or accept; suspending withdraws their open challenges, once.
 */

const HOUR_MS = 3_600_000;
let now = new Date('2031-03-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let admin: Agent;
let adminId: number;
let events: AppEvent[] = [];

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { SESSION_IDLE_MINUTES: '43200', SESSION_MAX_DAYS: '365' },
  });
  ({ agent: admin, id: adminId } = await signInAdmin(t));
  t.bus.subscribe((event) => {
    events.push(event);
  });
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
  events = [];
});
afterAll(async () => {
  await t.close();
});

const challenge = (amount: number): CreateChallengeBody => ({
  game: 'Tekken 8',
  amount,
  gamerTag: 'Kazuya',
  phoneNumber: '5550108000',
  console: 'PlayStation',
});

async function player(dollars: number) {
  const signed = await signUp(t.app, { email: 'suspect@example.com' });
  if (dollars > 0) await fund(t.database, signed.user.id, BigInt(dollars * 100));
  return signed;
}

async function create(agent: Agent, amount: number): Promise<number> {
  const response = await agent.post('/api/challenges', challenge(amount));
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
}

const suspend = (userId: number, body: object) =>
  admin.post(`/api/admin/users/${userId}/suspend`, body);

async function refundsOf(challengeId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from ledger_transfers
        where reference_type = 'challenge' and reference_id = ${String(challengeId)}
          and kind = 'refund'`,
  );
  return row?.n ?? 0;
}

const UNTIL = '2031-03-02T12:00:00.000Z';
const MESSAGE = 'Your account is suspended until 2031-03-02 12:00 UTC: Match fixing under review';

describe('what a suspended player may and may not do', () => {
  it('refuses deposits, new challenges and acceptances with the reason and the end', async () => {
    const suspect = await player(100);
    const rival = await player(100);
    const rivalChallenge = await create(rival.agent, 10);
    expect(
      (await suspend(suspect.user.id, { reason: 'Match fixing under review', until: UNTIL }))
        .statusCode,
    ).toBe(200);

    const refusals = await Promise.all([
      suspect.agent.post('/api/challenges', challenge(10)),
      suspect.agent.post(`/api/challenges/${rivalChallenge}/accept`),
      suspect.agent.post('/api/create-payment-intent', { amount: 20 }),
      suspect.agent.post('/api/create-crypto-payment', { amount: 20 }),
      suspect.agent.post('/api/crypto-deposit-notification', { amount: 20, currency: 'btc' }),
    ]);
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(403);
      expect(refusal.json()).toEqual({ code: 'ACCOUNT_SUSPENDED', message: MESSAGE });
    }
    // Nothing was staked or started.
    expect(await balanceOf(t.database, suspect.user.id)).toBe(10_000n);
    const [payments] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from payments where user_id = ${suspect.user.id}`,
    );
    expect(payments?.n).toBe(0);
    expect((await rival.agent.get(`/api/challenges/${rivalChallenge}`)).json()).toMatchObject({
      status: 'open',
    });
  });

  it('still lets them sign in, read, and withdraw their available money', async () => {
    const suspect = await player(50);
    const { user, password } = suspect;
    await suspend(suspect.user.id, { reason: 'Chargeback abuse' });

    const again = new Agent(t.app);
    const login = await again.post('/api/login', { username: user.username, password });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({
      suspension: { reason: 'Chargeback abuse', until: null },
    });
    expect((await again.get('/api/challenges')).statusCode).toBe(200);
    expect((await again.get('/api/transactions')).statusCode).toBe(200);

    const payout = await again.post('/api/payouts', {
      amount: 30,
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qsuspendedplayer0000000000000000000',
      phoneNumber: '+1 555 010 3000',
    });
    expect(payout.statusCode).toBe(201);
    expect(await balanceOf(t.database, user.id)).toBe(2_000n);

    const refused = await again.post('/api/challenges', challenge(5));
    expect(refused.json()).toEqual({
      code: 'ACCOUNT_SUSPENDED',
      message: 'Your account is suspended: Chargeback abuse',
    });
  });

  it('shows the suspension to the player at once, though their session was cached', async () => {
    const suspect = await player(10);
    // The session is now in this instance's cache, with the user as it was.
    expect((await suspect.agent.get('/api/user')).json()).toMatchObject({ suspension: null });
    await suspend(suspect.user.id, { reason: 'Abusive chat', until: UNTIL });
    expect((await suspect.agent.get('/api/user')).json()).toMatchObject({
      suspension: { reason: 'Abusive chat', until: UNTIL },
    });
    expect(events).toContainEqual({ type: 'user-changed', userId: suspect.user.id });
  });

  it('ends by itself when its time is up', async () => {
    const suspect = await player(20);
    await suspend(suspect.user.id, {
      reason: 'Cooling off',
      until: new Date(now.getTime() + HOUR_MS).toISOString(),
    });
    expect((await suspect.agent.post('/api/challenges', challenge(5))).statusCode).toBe(403);

    now = new Date(now.getTime() + 2 * HOUR_MS);
    expect((await suspect.agent.get('/api/user')).json()).toMatchObject({ suspension: null });
    await create(suspect.agent, 5);
    const listed = await admin.get('/api/admin/users?limit=500');
    expect(
      listed
        .json<Array<{ id: number; suspension: unknown }>>()
        .find((u) => u.id === suspect.user.id),
    ).toMatchObject({ suspension: null });
    // Nothing is left to lift.
    const lift = await admin.post(`/api/admin/users/${suspect.user.id}/unsuspend`);
    expect(lift.statusCode).toBe(409);
    expect(lift.json().message).toBe(ADMIN_MESSAGES.notSuspended);
  });
});

describe('suspending', () => {
  it('withdraws open challenges with their stakes, once, and leaves accepted matches be', async () => {
    const suspect = await player(100);
    const rival = await player(100);
    const open = [await create(suspect.agent, 10), await create(suspect.agent, 15)];
    const match = await create(suspect.agent, 20);
    expect((await rival.agent.post(`/api/challenges/${match}/accept`)).statusCode).toBe(200);
    const rivalOpen = await create(rival.agent, 5);
    expect(await balanceOf(t.database, suspect.user.id)).toBe(5_500n);
    events = [];

    const response = await suspend(suspect.user.id, { reason: 'Collusion', until: UNTIL });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: ADMIN_MESSAGES.userSuspended,
      userId: suspect.user.id,
      suspension: { reason: 'Collusion', until: UNTIL },
      cancelledChallengeIds: open,
    });
    expect(await balanceOf(t.database, suspect.user.id)).toBe(8_000n);
    for (const id of open) {
      expect((await suspect.agent.get(`/api/challenges/${id}`)).json()).toMatchObject({
        status: 'cancelled',
        cancelCause: 'suspended',
      });
      expect(await refundsOf(id)).toBe(1);
      expect(events).toContainEqual({
        type: 'challenge',
        challengeId: id,
        status: 'cancelled',
        audience: 'all',
      });
    }
    // Another player's open challenge and the accepted match are untouched.
    expect((await rival.agent.get(`/api/challenges/${rivalOpen}`)).json()).toMatchObject({
      status: 'open',
    });
    expect((await rival.agent.get(`/api/challenges/${match}`)).json()).toMatchObject({
      status: 'accepted',
    });

    // The player was told, in the app and by mail.
    const told = (await suspect.agent.get('/api/notifications')).json<NotificationList>();
    expect(told.notifications[0]).toMatchObject({
      kind: 'account_suspended',
      title: 'Your account is suspended',
    });
    expect(told.notifications[0]?.body).toContain(
      'Your account is suspended until 2031-03-02 12:00 UTC: Collusion.',
    );
    expect(told.notifications[0]?.body).toContain('Your 2 open challenge(s) were cancelled');
    const [mail] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from outbox
          where dedupe_key like ${`notification:account-suspended:${suspect.user.id}:%`}`,
    );
    expect(mail?.n).toBe(1);

    // A second suspension changes the reason and finds nothing more to refund.
    const again = await suspend(suspect.user.id, { reason: 'Collusion, confirmed' });
    expect(again.json()).toMatchObject({ cancelledChallengeIds: [] });
    for (const id of open) expect(await refundsOf(id)).toBe(1);
    expect(await balanceOf(t.database, suspect.user.id)).toBe(8_000n);

    // The accepted match is still played out and reported as usual.
    const reported = await suspect.agent.post(`/api/challenges/${match}/submit`, {
      creatorScore: 1,
      acceptorScore: 3,
      screenshot: 'https://example.com/result.png',
    });
    expect(reported.statusCode).toBe(200);
    expect((await rival.agent.post(`/api/challenges/${match}/confirm`)).statusCode).toBe(200);
    expect(await balanceOf(t.database, rival.user.id)).toBe(10_000n - 2_000n - 500n + 3_800n);
  });

  it('is audited, and so is its lifting, which lets the player play again', async () => {
    const suspect = await player(30);
    const opened = await create(suspect.agent, 10);
    await suspend(suspect.user.id, { reason: 'Suspicious deposits', until: UNTIL });

    const lift = await admin.post(`/api/admin/users/${suspect.user.id}/unsuspend`, {
      reason: 'Deposits checked with the bank',
    });
    expect(lift.statusCode).toBe(200);
    expect(lift.json()).toEqual({
      message: ADMIN_MESSAGES.userUnsuspended,
      userId: suspect.user.id,
    });
    expect((await suspect.agent.get('/api/user')).json()).toMatchObject({ suspension: null });
    await create(suspect.agent, 10);
    // What the suspension withdrew stays withdrawn.
    expect((await suspect.agent.get(`/api/challenges/${opened}`)).json()).toMatchObject({
      status: 'cancelled',
    });

    const [lifted, suspended] = await auditEntriesFor(t.database, {
      type: 'user',
      id: suspect.user.id,
    });
    expect(suspended).toMatchObject({
      actorUserId: adminId,
      action: 'user.suspend',
      reason: 'Suspicious deposits',
      details: { until: UNTIL, cancelledChallengeIds: [opened] },
    });
    expect(lifted).toMatchObject({
      actorUserId: adminId,
      action: 'user.unsuspend',
      reason: 'Deposits checked with the bank',
      details: { until: UNTIL, suspensionReason: 'Suspicious deposits' },
    });
    const told = (await suspect.agent.get('/api/notifications')).json<NotificationList>();
    expect(told.notifications[0]).toMatchObject({ kind: 'suspension_lifted' });
  });

  it('lists each user’s suspension for the admins', async () => {
    const suspect = await player(0);
    await suspend(suspect.user.id, { reason: 'Multiple accounts' });
    const listed = await admin.get('/api/admin/users?limit=500');
    const row = listed
      .json<Array<{ id: number; suspension: unknown }>>()
      .find((user) => user.id === suspect.user.id);
    expect(row).toMatchObject({ suspension: { reason: 'Multiple accounts', until: null } });
  });

  it('refuses an admin, a deleted or unknown user, oneself, and an end in the past', async () => {
    const other = await signInAdmin(t);
    expect((await suspend(other.id, { reason: 'x' })).json()).toEqual({
      code: 'FORBIDDEN',
      message: ADMIN_MESSAGES.cannotSuspendAdmin,
    });
    expect((await suspend(adminId, { reason: 'x' })).json()).toEqual({
      code: 'FORBIDDEN',
      message: ADMIN_MESSAGES.cannotSuspendSelf,
    });
    const gone = await player(0);
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/admin/users/${gone.user.id}` }))
        .statusCode,
    ).toBe(200);
    for (const id of [gone.user.id, 2_000_000_000]) {
      const refused = await suspend(id, { reason: 'x' });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(ADMIN_MESSAGES.userNotFound);
      expect((await admin.post(`/api/admin/users/${id}/unsuspend`)).statusCode).toBe(404);
    }

    const suspect = await player(0);
    const past = await suspend(suspect.user.id, {
      reason: 'Late',
      until: new Date(now.getTime() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { until: ADMIN_MESSAGES.suspensionEndPast },
    });
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const bad = await suspend(suspect.user.id, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields.reason).toBeDefined();
    }
    const badEnd = await suspend(suspect.user.id, { reason: 'x', until: 'next tuesday' });
    expect(badEnd.json().fields).toEqual({ until: ADMIN_MESSAGES.suspensionEndInvalid });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, suspect.user.id));
    expect(row?.suspendedAt).toBeNull();
    expect(await auditEntriesFor(t.database, { type: 'user', id: suspect.user.id })).toEqual([]);
  });

  it('a creation guarded by a suspension that has since changed creates nothing', async () => {
    const suspect = await player(20);
    await suspend(suspect.user.id, { reason: 'Fraud' });
    const seenBefore = {
      suspendedAt: null,
      suspendedUntil: null,
      playBreakUntil: null,
      moneyLockedAt: null,
    };
    const rows = await queryRows(
      t.database.db,
      createChallengeCall(
        {
          creatorId: suspect.user.id,
          stakeCents: 500n,
          game: 'Chess',
          gamerTag: 'Pawn',
          phoneNumber: '5550107000',
          console: 'PC',
          mode: null,
          platform: null,
          opponentId: null,
          now,
        },
        seenBefore,
      ),
    );
    expect(rows).toEqual([]);
    const created = await t.database.db
      .select()
      .from(challenges)
      .where(eq(challenges.creatorId, suspect.user.id));
    expect(created).toEqual([]);
  });
});

describe.runIf(onPostgres)('suspension on PostgreSQL', () => {
  it('a challenge created while a suspension commits is refused, never left open', async () => {
    for (let round = 0; round < 4; round += 1) {
      const suspect = await player(100);
      // One open challenge, so that the suspension posts a refund: the wrapped ledger holds the
      // suspension's transaction open there, the player's row already locked and changed.
      await create(suspect.agent, 10);
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let paused = () => {};
      const pausedAt = new Promise<void>((resolve) => {
        paused = resolve;
      });
      const slowCtx = createAppContext({
        env: t.env,
        database: t.database,
        bus: t.bus,
        clock,
        wrapLedger: (ledger): Ledger => ({
          ...ledger,
          post: async (uow, input) => {
            paused();
            await gate;
            return ledger.post(uow, input);
          },
        }),
      });
      const suspension = suspendUser(slowCtx, {
        adminId,
        userId: suspect.user.id,
        reason: 'Caught mid-creation',
        until: undefined,
      });
      await pausedAt;
      const creation = createChallenge(
        createAppContext({ env: t.env, database: t.database, bus: t.bus, clock }),
        suspect.user.id,
        challenge(10),
      ).then(
        () => 'created',
        (error: { code?: string }) => error.code,
      );
      // The creation waits on the player's row, which the suspension holds.
      await expect
        .poll(async () => {
          const [row] = await queryRows<{ n: number }>(
            t.database.db,
            sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
          );
          return row?.n ?? 0;
        })
        .toBeGreaterThan(0);
      release();
      await suspension;
      expect(await creation).toBe('ACCOUNT_SUSPENDED');
      const open = await t.database.db
        .select()
        .from(challenges)
        .where(eq(challenges.creatorId, suspect.user.id));
      expect(open.map((row) => row.status)).toEqual(['cancelled']);
    }
  });

  it('a suspension on instance A reaches the cached session on instance B', async () => {
    await withTwoInstances(async (a, b) => {
      const { agent, user } = await signUp(a.app);
      await fund(a.database, user.id, 5_000n);
      const onB = new Agent(b.app);
      onB.useCookie(agent.sessionCookie);
      expect((await onB.get('/api/user')).json()).toMatchObject({ suspension: null });

      const adminOnA = await signInAdmin(a);
      const suspended = await adminOnA.agent.post(`/api/admin/users/${user.id}/suspend`, {
        reason: 'Seen on both',
      });
      expect(suspended.statusCode).toBe(200);
      // Money routes read the suspension afresh: refused on B at once.
      expect((await onB.post('/api/challenges', challenge(5))).statusCode).toBe(403);
      await expect
        .poll(async () => (await onB.get('/api/user')).json<{ suspension: unknown }>().suspension)
        .toEqual({ reason: 'Seen on both', until: null });
      await expectLedgerHealthy(a.database);
    });
  });
});
