import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES, type AdminReport } from '#shared/contracts/reports.ts';
import { playerReports } from '#server/db/schema/fair-play.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  GENEROUS_RATE_LIMITS,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../admin/testing/admin-agent.ts';

/** Player reports (docs/fair-play.md): a player reports another; admins work through the queue. */

let now = new Date('2031-03-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const report = (agent: Agent, username: string, body: object) =>
  agent.post(`/api/players/${encodeURIComponent(username)}/report`, body);

/** A challenge `creator` made and `acceptor` accepted, both funded for it. */
async function match(app: TestApp, creator: Agent, creatorId: number, acceptor?: Agent) {
  await fund(app.database, creatorId, 1_000n);
  const created = await creator.post('/api/challenges', {
    game: 'Mortal Kombat 1',
    amount: 5,
    gamerTag: 'Scorpion',
    phoneNumber: '5550106000',
    console: 'Xbox',
  });
  expect(created.statusCode).toBe(201);
  const { id } = created.json<{ id: number }>();
  if (acceptor) expect((await acceptor.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  return id;
}

describe('reporting a player', () => {
  it('puts the report in the queue, open, whatever the case of the name', async () => {
    const reporter = await signUp(t.app);
    const reported = await signUp(t.app);
    const response = await report(reporter.agent, reported.user.username.toUpperCase(), {
      reason: '  Threatened me after the match  ',
    });
    expect(response.statusCode).toBe(201);
    const { id, message } = response.json<{ id: number; message: string }>();
    expect(message).toBe(REPORT_MESSAGES.received);
    const [row] = await t.database.db.select().from(playerReports).where(eq(playerReports.id, id));
    expect(row).toMatchObject({
      reporterId: reporter.user.id,
      reportedUserId: reported.user.id,
      challengeId: null,
      reason: 'Threatened me after the match',
      status: 'open',
      createdAt: now,
      resolvedBy: null,
    });
  });

  it('names a challenge only if the two played it together', async () => {
    const reporter = await signUp(t.app);
    const reported = await signUp(t.app);
    const stranger = await signUp(t.app);
    await fund(t.database, reported.user.id, 1_000n);
    await fund(t.database, stranger.user.id, 1_000n);
    const together = await match(t, reporter.agent, reporter.user.id, reported.agent);
    const reportedOpen = await match(t, reported.agent, reported.user.id);
    const withStranger = await match(t, reporter.agent, reporter.user.id, stranger.agent);

    const named = await report(reporter.agent, reported.user.username, {
      reason: 'Sent a fake screenshot',
      challengeId: together,
    });
    expect(named.statusCode).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(playerReports)
      .where(eq(playerReports.id, named.json<{ id: number }>().id));
    expect(row?.challengeId).toBe(together);

    for (const challengeId of [reportedOpen, withStranger, 2_000_000_000]) {
      const refused = await report(reporter.agent, reported.user.username, {
        reason: 'Sent a fake screenshot',
        challengeId,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        code: 'VALIDATION_FAILED',
        message: REPORT_MESSAGES.challengeNotShared,
        fields: { challengeId: REPORT_MESSAGES.challengeNotShared },
      });
    }
  });

  it('refuses an unknown or deleted player, oneself, and a reason that is missing or long', async () => {
    const reporter = await signUp(t.app);
    const gone = await signUp(t.app);
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/admin/users/${gone.user.id}` }))
        .statusCode,
    ).toBe(200);
    for (const username of [
      'nobody_here_at_all',
      gone.user.username,
      `deleted_user_${gone.user.id}`,
    ]) {
      const refused = await report(reporter.agent, username, { reason: 'Cheating' });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({
        code: 'NOT_FOUND',
        message: REPORT_MESSAGES.playerNotFound,
      });
    }

    const self = await report(reporter.agent, reporter.user.username.toUpperCase(), {
      reason: 'Testing',
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(REPORT_MESSAGES.cannotReportSelf);

    const other = await signUp(t.app);
    for (const [body, message] of [
      [{}, REPORT_MESSAGES.reasonRequired],
      [{ reason: '   ' }, REPORT_MESSAGES.reasonRequired],
      [{ reason: 'x'.repeat(1001) }, REPORT_MESSAGES.reasonMax],
    ] as const) {
      const refused = await report(reporter.agent, other.user.username, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({ reason: message });
    }
    const badChallenge = await report(reporter.agent, other.user.username, {
      reason: 'Cheating',
      challengeId: 'seven',
    });
    expect(badChallenge.json().fields).toEqual({ challengeId: REPORT_MESSAGES.challengeInvalid });

    const anonymous = await report(new Agent(t.app), other.user.username, { reason: 'Cheating' });
    expect(anonymous.statusCode).toBe(401);
    const stored = await t.database.db
      .select()
      .from(playerReports)
      .where(eq(playerReports.reporterId, reporter.user.id));
    expect(stored).toEqual([]);
  });

  it('allows ten reports an hour per reporter, counting those refused', async () => {
    const limited = await createTestApp({
      clock,
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        reportPerUser: { name: 'report:player', limit: 10, windowMs: 3_600_000 },
      },
    });
    try {
      const reporter = await signUp(limited.app);
      const reported = await signUp(limited.app);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect(
          (await report(reporter.agent, `nobody_${attempt}`, { reason: 'Probe' })).statusCode,
        ).toBe(404);
      }
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect(
          (await report(reporter.agent, reported.user.username, { reason: 'Flood' })).statusCode,
        ).toBe(201);
      }
      const refused = await report(reporter.agent, reported.user.username, { reason: 'Flood' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: REPORT_MESSAGES.tooMany,
      });
      expect(refused.json().retryAfter).toBeGreaterThan(0);
      // Another reporter is not held back.
      const other = await signUp(limited.app);
      expect(
        (await report(other.agent, reported.user.username, { reason: 'Flood' })).statusCode,
      ).toBe(201);
    } finally {
      await limited.close();
    }
  });
});

describe('the admins’ REPORTS queue', () => {
  it('lists open reports first, newest first, then the resolved ones, page by page', async () => {
    const queue = await createTestApp({ clock });
    try {
      const { agent: operator } = await signInAdmin(queue);
      const reporter = await signUp(queue.app);
      const reported = await signUp(queue.app);
      const ids: number[] = [];
      for (const reason of ['first', 'second', 'third', 'fourth']) {
        now = new Date(now.getTime() + 60_000);
        const filed = await report(reporter.agent, reported.user.username, { reason });
        ids.push(filed.json<{ id: number }>().id);
      }
      const [first, second, third, fourth] = ids as [number, number, number, number];
      for (const id of [second, first]) {
        const resolved = await operator.post(`/api/admin/reports/${id}/resolve`, {
          action: 'dismiss',
          note: 'Nothing to act on',
        });
        expect(resolved.statusCode).toBe(200);
      }

      const page = async (query: string) =>
        (await operator.get(`/api/admin/reports${query}`))
          .json<AdminReport[]>()
          .map((item) => item.id);
      expect(await page('')).toEqual([fourth, third, second, first]);
      expect(await page('?limit=1')).toEqual([fourth]);
      expect(await page('?limit=2&offset=1')).toEqual([third, second]);
      expect(await page('?limit=5&offset=3')).toEqual([first]);
      expect(await page('?offset=4')).toEqual([]);

      const [newest] = (await operator.get('/api/admin/reports')).json<AdminReport[]>();
      expect(newest).toEqual({
        id: fourth,
        status: 'open',
        reason: 'fourth',
        challengeId: null,
        reporter: { id: reporter.user.id, username: reporter.user.username },
        reported: { id: reported.user.id, username: reported.user.username },
        createdAt: now.toISOString(),
        resolvedBy: null,
        resolvedAt: null,
        resolutionNote: null,
      });
    } finally {
      await queue.close();
    }
  });

  it('resolves an open report once, with a note, in the audit log', async () => {
    const reporter = await signUp(t.app);
    const reported = await signUp(t.app);
    const { id } = (
      await report(reporter.agent, reported.user.username, { reason: 'Smurf account' })
    ).json<{ id: number }>();

    for (const [body, field] of [
      [{ action: 'ban', note: 'x' }, 'action'],
      [{ action: 'actioned' }, 'note'],
      [{ action: 'actioned', note: '  ' }, 'note'],
    ] as const) {
      const refused = await admin.post(`/api/admin/reports/${id}/resolve`, body);
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().fields)).toEqual([field]);
    }

    const resolved = await admin.post(`/api/admin/reports/${id}/resolve`, {
      action: 'actioned',
      note: 'Suspended the account',
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({
      id,
      status: 'actioned',
      resolvedBy: { id: adminId },
      resolvedAt: now.toISOString(),
      resolutionNote: 'Suspended the account',
    });
    const [entry] = await auditEntriesFor(t.database, { type: 'report', id });
    expect(entry).toMatchObject({
      actorUserId: adminId,
      action: 'report.resolve',
      reason: 'Suspended the account',
      details: {
        status: 'actioned',
        reporterId: reporter.user.id,
        reportedUserId: reported.user.id,
        challengeId: null,
      },
    });

    const again = await admin.post(`/api/admin/reports/${id}/resolve`, {
      action: 'dismiss',
      note: 'Changed my mind',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REPORT_MESSAGES.alreadyResolved);
    expect(await auditEntriesFor(t.database, { type: 'report', id })).toHaveLength(1);

    const missing = await admin.post('/api/admin/reports/2000000000/resolve', {
      action: 'dismiss',
      note: 'x',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(REPORT_MESSAGES.reportNotFound);
  });
});
