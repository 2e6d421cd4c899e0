import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  INSIGHTS_MESSAGES,
  type AdminNoteView,
  type PlayerPage,
} from '#shared/contracts/insights.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { auditEntriesFor, signInAdmin } from '../admin/testing/admin-agent.ts';

/**
 * The admin's page per player (docs/operator-tools.md, issue 22): one player whole, and notes,
 * audited.
 */

let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/players/:id', () => {
  it('shows the profile, record, challenges, money and sessions of one player', async () => {
    const creator = await signUp(t.app);
    const opponent = await signUp(t.app);
    await fund(t.database, creator.user.id, 2_000n);
    await fund(t.database, opponent.user.id, 2_000n);
    const created = await creator.agent.post('/api/challenges', {
      game: 'Chess',
      amount: 5,
      gamerTag: 'Knight',
      phoneNumber: '5550106000',
      console: 'PC',
    });
    expect(created.statusCode).toBe(201);
    const { id: challengeId } = created.json<{ id: number }>();
    expect((await opponent.agent.post(`/api/challenges/${challengeId}/accept`)).statusCode).toBe(
      200,
    );

    const response = await admin.get(`/api/admin/players/${creator.user.id}`);
    expect(response.statusCode).toBe(200);
    const page = response.json<PlayerPage>();
    expect(page.profile).toMatchObject({
      id: creator.user.id,
      username: creator.user.username,
      balance: 15,
      suspension: null,
    });
    expect(page.deleted).toBe(false);
    expect(page.verification.status).toBe('none');
    expect(page.responsibleGaming.limits.daily.amount).toBeNull();
    expect(page.record.played).toBe(0);
    expect(page.challenges.map((challenge) => challenge.id)).toEqual([challengeId]);
    expect(page.transactions.map((transaction) => transaction.amount)).toEqual([-5, 20]);
    expect(page.payments).toEqual([]);
    expect(page.payouts).toEqual([]);
    // The sign-up's session, with where and what it came from.
    expect(page.sessions).toHaveLength(1);
    expect(page.sessions[0]).toMatchObject({
      address: '127.0.0.1',
      current: false,
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
    });
    expect(page.notes).toEqual([]);
  });

  it('answers 404 for a player that does not exist', async () => {
    const missing = await admin.get('/api/admin/players/2000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      code: 'NOT_FOUND',
      message: INSIGHTS_MESSAGES.playerNotFound,
    });
  });
});

describe('POST /api/admin/players/:id/notes', () => {
  it('keeps a note, newest first on the page, and in the audit log', async () => {
    const { user } = await signUp(t.app);
    for (const body of ['  Asked for ID  ', 'ID received, looks fine']) {
      const added = await admin.post(`/api/admin/players/${user.id}/notes`, { body });
      expect(added.statusCode).toBe(201);
    }
    const page = (await admin.get(`/api/admin/players/${user.id}`)).json<PlayerPage>();
    expect(page.notes.map((note: AdminNoteView) => [note.body, note.author.id])).toEqual([
      ['ID received, looks fine', adminId],
      ['Asked for ID', adminId],
    ]);
    const audited = await auditEntriesFor(t.database, { type: 'user', id: user.id }, 'player.note');
    expect(audited.map((entry) => [entry.actorUserId, entry.reason])).toEqual([
      [adminId, 'ID received, looks fine'],
      [adminId, 'Asked for ID'],
    ]);
  });

  it('refuses an empty or long note, an unknown player, and anyone but an admin', async () => {
    const { user, agent } = await signUp(t.app);
    for (const [body, message] of [
      [{}, INSIGHTS_MESSAGES.noteRequired],
      [{ body: '   ' }, INSIGHTS_MESSAGES.noteRequired],
      [{ body: 'x'.repeat(2001) }, INSIGHTS_MESSAGES.noteMax],
    ] as const) {
      const refused = await admin.post(`/api/admin/players/${user.id}/notes`, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().fields).toEqual({ body: message });
    }
    expect(
      (await admin.post('/api/admin/players/2000000000/notes', { body: 'Hello' })).statusCode,
    ).toBe(404);
    expect(
      (await agent.post(`/api/admin/players/${user.id}/notes`, { body: 'Hi' })).statusCode,
    ).toBe(403);
    expect((await agent.get(`/api/admin/players/${user.id}`)).statusCode).toBe(403);
  });
});
