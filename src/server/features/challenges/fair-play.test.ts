import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_MESSAGES, EVIDENCE_MESSAGES } from '#shared/contracts/challenges.ts';
import type { NotificationList } from '#shared/contracts/notifications.ts';
import { createAppContext } from '#server/context.ts';
import { queryRows } from '#server/db/client.ts';
import { challenges } from '#server/db/schema/challenges.ts';
import { outbox } from '#server/db/schema/outbox.ts';
import { checkLedgerInvariants } from '#server/features/ledger/invariants.ts';
import type { AppEvent } from '#server/lib/event-bus.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import { multipartForm, sampleFile } from '#tests/helpers/multipart.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  markEmailVerified,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { runFairPlayPass } from './review.ts';

/**
 * Fair play (issue 16, docs/fair-play.md): a reported result's credit waits for the opponent, so a
 * false report can always be undone; an accepted match that nobody reports always ends.
 */

const HOUR_MS = 3_600_000;
let now = new Date('2031-03-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let admin: Agent;
let events: AppEvent[] = [];

beforeAll(async () => {
  // The clock moves days ahead here: sessions must outlive it.
  t = await createTestApp({
    clock,
    env: { SESSION_IDLE_MINUTES: '43200', SESSION_MAX_DAYS: '365' },
  });
  ({ agent: admin } = await signInAdmin(t));
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

const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus, clock });

async function player(dollars: number, email?: string) {
  const signed = await signUp(t.app, email ? { email } : {});
  await fund(t.database, signed.user.id, BigInt(dollars * 100));
  return signed;
}

/** A $`amount` challenge created by `creator` and accepted by `acceptor`. */
async function acceptedMatch(amount: number, creatorDollars = amount, acceptorDollars = amount) {
  const creator = await player(creatorDollars, 'creator@example.com');
  const acceptor = await player(acceptorDollars, 'acceptor@example.com');
  const created = await creator.agent.post('/api/challenges', {
    game: 'EA FC 26',
    amount,
    gamerTag: 'Striker',
    phoneNumber: '5550109000',
    console: 'PlayStation',
  });
  expect(created.statusCode).toBe(201);
  const { id } = created.json<{ id: number }>();
  expect((await acceptor.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  return { id, creator, acceptor };
}

const report = (agent: Agent, id: number, creatorScore: number, acceptorScore: number) =>
  agent.post(`/api/challenges/${id}/submit`, {
    creatorScore,
    acceptorScore,
    screenshot: 'https://example.com/result.png',
  });

async function user(agent: Agent) {
  return (await agent.get('/api/user')).json<{
    balance: number;
    available: number;
    underReview: number;
  }>();
}

async function notificationsOf(agent: Agent): Promise<NotificationList> {
  return (await agent.get('/api/notifications')).json<NotificationList>();
}

describe('the false report of the issue', () => {
  it('a false win cannot be withdrawn, and the admin awards the honest player in full', async () => {
    const { id, creator, acceptor } = await acceptedMatch(50);
    // The creator reports a 5–0 win at once.
    const reported = await report(creator.agent, id, 5, 0);
    expect(reported.statusCode).toBe(200);
    expect(reported.json()).toEqual({
      status: 'completed',
      winner: { id: creator.user.id, prize: 100, deduction: 5 },
      updatedWinnerInfo: { id: creator.user.id, balance: 95 },
      review: { held: 95, until: '2031-03-02T12:00:00.000Z' },
    });
    expect(await user(creator.agent)).toMatchObject({ balance: 95, available: 0, underReview: 95 });

    // …and asks for the whole balance the same minute: only available money can leave.
    const payout = await creator.agent.post('/api/payouts', {
      amount: 95,
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qfalsewinneraddress000000000000000',
      phoneNumber: '+1 555 010 3000',
    });
    expect(payout.statusCode).toBe(400);
    expect(payout.json().message).toBe('Insufficient balance');

    // The honest player was told, and disputes.
    const told = await notificationsOf(acceptor.agent);
    expect(told.unread).toBeGreaterThanOrEqual(1);
    expect(told.notifications[0]).toMatchObject({ kind: 'result_reported', challengeId: id });
    // …live as well, the same notification the list shows.
    expect(events).toContainEqual({
      type: 'notification',
      userId: acceptor.user.id,
      notification: told.notifications[0],
    });
    const disputed = await acceptor.agent.post(`/api/challenges/${id}/dispute`, {
      reason: 'I won 3–1; the screenshot is from another match',
    });
    expect(disputed.statusCode).toBe(200);
    expect(disputed.json()).toMatchObject({ status: 'disputed', reviewEndsAt: null });

    // The admin's queue says where the money is.
    const queue = (await admin.get('/api/admin/disputes')).json<
      Array<{ id: number; stakesInEscrow: boolean; heldForReview: boolean }>
    >();
    expect(queue.find((d) => d.id === id)).toMatchObject({
      stakesInEscrow: false,
      heldForReview: true,
    });
    // The admin decides for the honest player: it succeeds, because the credit never left.
    const decided = await admin.post(`/api/admin/disputes/${id}/resolve`, {
      outcome: 'acceptor',
      note: 'The screenshot belongs to another match',
    });
    expect(decided.statusCode).toBe(200);
    expect(await user(creator.agent)).toMatchObject({ balance: 0, available: 0, underReview: 0 });
    expect(await user(acceptor.agent)).toMatchObject({
      balance: 95,
      available: 95,
      underReview: 0,
    });
    expect((await notificationsOf(acceptor.agent)).notifications[0]).toMatchObject({
      kind: 'dispute_decided',
    });
    // Nothing is left for the worker: the decision was final.
    now = new Date(now.getTime() + 48 * HOUR_MS);
    expect(await runFairPlayPass(ctx())).toEqual({ released: 0, reminded: 0, expired: 0 });
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(9500n);
  });

  it('an admin may uphold the reported winner, who is then paid once', async () => {
    const { id, creator, acceptor } = await acceptedMatch(10);
    await report(creator.agent, id, 2, 1);
    await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'Lag' });
    const decided = await admin.post(`/api/admin/disputes/${id}/resolve`, {
      outcome: 'creator',
      note: 'The result stands',
    });
    expect(decided.statusCode).toBe(200);
    expect(await user(creator.agent)).toMatchObject({ available: 19, underReview: 0 });
    expect(await user(acceptor.agent)).toMatchObject({ available: 0, underReview: 0 });
  });

  it('refunding both gives each stake back, the house fee included', async () => {
    const { id, creator, acceptor } = await acceptedMatch(10);
    await report(creator.agent, id, 2, 1);
    await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'Never played' });
    const decided = await admin.post(`/api/admin/disputes/${id}/resolve`, {
      outcome: 'refund',
      note: 'No evidence either way',
    });
    expect(decided.statusCode).toBe(200);
    expect(await user(creator.agent)).toMatchObject({ available: 10, underReview: 0 });
    expect(await user(acceptor.agent)).toMatchObject({ available: 10, underReview: 0 });
    const [row] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
    expect(row).toMatchObject({ status: 'cancelled', cancelCause: 'refunded' });
  });
});

describe('the review', () => {
  it('with no answer, the result stands when the review ends: released once, by any pass', async () => {
    const { id, creator, acceptor } = await acceptedMatch(20);
    await report(acceptor.agent, id, 0, 3);
    expect(await user(acceptor.agent)).toMatchObject({ balance: 38, underReview: 38 });

    now = new Date(now.getTime() + 23 * HOUR_MS + 30 * 60_000);
    expect(await runFairPlayPass(ctx())).toMatchObject({ released: 0, reminded: 1 });
    expect((await notificationsOf(creator.agent)).notifications[0]).toMatchObject({
      kind: 'review_ending',
      challengeId: id,
    });
    // Reminded once, however many passes run.
    expect(await runFairPlayPass(ctx())).toMatchObject({ reminded: 0 });

    now = new Date(now.getTime() + 31 * 60_000);
    expect(await runFairPlayPass(ctx())).toMatchObject({ released: 1 });
    expect(await runFairPlayPass(ctx())).toMatchObject({ released: 0 });
    expect(await user(acceptor.agent)).toMatchObject({
      balance: 38,
      available: 38,
      underReview: 0,
    });
    const [row] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
    expect(row).toMatchObject({ releaseCause: 'review_ended' });
    // The winner's socket heard the new split.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'balance',
        userId: acceptor.user.id,
        availableCents: '3800',
        underReviewCents: '0',
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'notification',
        userId: acceptor.user.id,
        notification: expect.objectContaining({ kind: 'result_released' }),
      }),
    );

    // Too late to dispute now, even before anyone confirms.
    const late = await creator.agent.post(`/api/challenges/${id}/dispute`, { reason: 'late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(CHALLENGE_MESSAGES.disputeNotAllowed);
  });

  it('a dispute after the review ended is refused even if no worker has released it yet', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    await report(creator.agent, id, 1, 0);
    now = new Date(now.getTime() + 24 * HOUR_MS);
    const late = await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'late' });
    expect(late.statusCode).toBe(409);
    expect(await runFairPlayPass(ctx())).toMatchObject({ released: 1 });
  });

  it('only the opponent confirms; confirming twice or after the release changes nothing', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    const outsider = await player(5);
    await report(creator.agent, id, 1, 0);
    expect((await outsider.agent.post(`/api/challenges/${id}/confirm`)).statusCode).toBe(403);
    const own = await creator.agent.post(`/api/challenges/${id}/confirm`);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(CHALLENGE_MESSAGES.confirmOwnReport);
    expect((await acceptor.agent.post(`/api/challenges/${id}/confirm`)).statusCode).toBe(200);
    expect((await acceptor.agent.post(`/api/challenges/${id}/confirm`)).statusCode).toBe(200);
    expect(await balanceOf(t.database, creator.user.id)).toBe(950n);
    const transfers = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ledger_transfers where idempotency_key = ${`release:${id}`}`,
    );
    expect(transfers).toEqual([{ n: 1 }]);
  });

  it('a disputed result cannot be confirmed, and an open one has nothing to confirm', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    const early = await acceptor.agent.post(`/api/challenges/${id}/confirm`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CHALLENGE_MESSAGES.nothingToConfirm);
    await report(creator.agent, id, 1, 0);
    await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'wrong' });
    const confirm = await acceptor.agent.post(`/api/challenges/${id}/confirm`);
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().message).toBe(CHALLENGE_MESSAGES.confirmDisputed);
  });

  it('the result mail says the credit is held, and a stale review account fails the daily check', async () => {
    const { id, creator } = await acceptedMatch(5);
    await report(creator.agent, id, 1, 0);
    const mails = await t.database.db
      .select({ body: outbox.body })
      .from(outbox)
      .where(eq(outbox.dedupeKey, `challenge-result:${id}:${creator.user.id}`));
    expect(mails[0]?.body).toContain('is held for review until');
    // A row that says "released" while its credit is still held is what the check exists for.
    await t.database.db
      .update(challenges)
      .set({ releasedAt: now, releaseCause: 'confirmed' })
      .where(eq(challenges.id, id));
    const report_ = await checkLedgerInvariants(t.database.db);
    expect(report_.problems).toContain(
      `review:challenge:${id} still holds 950 cents but its result is settled`,
    );
    await t.database.db
      .update(challenges)
      .set({ releasedAt: null, releaseCause: null })
      .where(eq(challenges.id, id));
  });
});

describe('matches that never finish', () => {
  it('both players asking to call it off refunds both stakes', async () => {
    const { id, creator, acceptor } = await acceptedMatch(15);
    const first = await creator.agent.post(`/api/challenges/${id}/cancel`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      status: 'accepted',
      cancelRequestedBy: [creator.user.id],
    });
    const again = await creator.agent.post(`/api/challenges/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CHALLENGE_MESSAGES.cancelRequested);
    expect((await notificationsOf(acceptor.agent)).notifications[0]).toMatchObject({
      kind: 'cancel_requested',
    });
    const second = await acceptor.agent.post(`/api/challenges/${id}/cancel`);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ status: 'cancelled', cancelCause: 'mutual' });
    expect(await balanceOf(t.database, creator.user.id)).toBe(1500n);
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(1500n);
  });

  it('a no-show can be claimed after the waiting time, and goes to an admin as a dispute', async () => {
    const { id, creator, acceptor } = await acceptedMatch(10);
    const early = await creator.agent.post(`/api/challenges/${id}/no-show`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(CHALLENGE_MESSAGES.noShowTooEarly);
    now = new Date(now.getTime() + 30 * 60_000);
    const claimed = await creator.agent.post(`/api/challenges/${id}/no-show`);
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json()).toMatchObject({
      status: 'disputed',
      disputeReason: 'No-show',
      noShowClaimedBy: creator.user.id,
    });
    expect((await notificationsOf(acceptor.agent)).notifications[0]).toMatchObject({
      kind: 'no_show_claimed',
    });
    const decided = await admin.post(`/api/admin/disputes/${id}/resolve`, {
      outcome: 'creator',
      note: 'The opponent never joined the lobby',
    });
    expect(decided.statusCode).toBe(200);
    expect(await balanceOf(t.database, creator.user.id)).toBe(1900n);
  });

  it('an accepted match with no result after the time limit is refunded once, and both are told', async () => {
    const { id, creator, acceptor } = await acceptedMatch(25);
    now = new Date(now.getTime() + 23 * HOUR_MS);
    expect(await runFairPlayPass(ctx())).toMatchObject({ expired: 0 });
    now = new Date(now.getTime() + HOUR_MS);
    expect(await runFairPlayPass(ctx())).toMatchObject({ expired: 1 });
    expect(await runFairPlayPass(ctx())).toMatchObject({ expired: 0 });
    expect(await balanceOf(t.database, creator.user.id)).toBe(2500n);
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(2500n);
    for (const agent of [creator.agent, acceptor.agent]) {
      expect((await notificationsOf(agent)).notifications[0]).toMatchObject({
        kind: 'match_expired',
        challengeId: id,
      });
    }
    const [row] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
    expect(row).toMatchObject({ status: 'cancelled', cancelCause: 'expired' });
  });
});

describe('the rules', () => {
  it('tells the pages the review, no-show and time-limit settings', async () => {
    const { creator } = await acceptedMatch(1);
    expect((await creator.agent.get('/api/challenges/rules')).json()).toEqual({
      resultReviewHours: 24,
      noShowMinutes: 30,
      matchTimeLimitHours: 24,
    });
  });
});

describe('notifications', () => {
  it('a payout completed or failed is told once, beside the mail that says it', async () => {
    const owner = await player(30, 'owner@example.com');
    // Payout notices are mailed only to a proven address (docs/accounts.md#account-security).
    await markEmailVerified(t.database, owner.user.id);
    const request = () =>
      owner.agent.post('/api/payouts', {
        amount: 10,
        paymentMethod: 'crypto',
        paymentDetails: 'BTC bc1qnotifiedaddress000000000000000000',
        phoneNumber: '+1 555 010 3000',
      });
    const sent = (await request()).json<{ payout: { id: number } }>().payout.id;
    const failed = (await request()).json<{ payout: { id: number } }>().payout.id;
    expect((await admin.post(`/api/admin/payouts/${sent}/complete`)).statusCode).toBe(200);
    expect(
      (await admin.post(`/api/admin/payouts/${failed}/fail`, { reason: 'Bad address' })).statusCode,
    ).toBe(200);
    const told = (await notificationsOf(owner.agent)).notifications.map((n) => [n.kind, n.body]);
    expect(told).toEqual([
      [
        'payout_failed',
        `Payout #${failed} could not be completed (Bad address). The amount is back in your balance.`,
      ],
      ['payout_completed', `Payout #${sent} of $10.00 has been sent to your wallet.`],
    ]);
    const mails = await t.database.db
      .select({ key: outbox.dedupeKey })
      .from(outbox)
      .where(eq(outbox.recipient, 'owner@example.com'));
    // Beside registration's verification link: the payout's own mails, and no notification's.
    const payoutMails = mails.map((m) => m.key).filter((key) => !key.startsWith('verify-email:'));
    expect(payoutMails.sort()).toEqual([`payout-complete:${sent}`, `payout-fail:${failed}`].sort());
  });

  it('lists newest first with the unread count, marks some or all read, and only one’s own', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    await report(acceptor.agent, id, 0, 1);
    const list = await notificationsOf(creator.agent);
    expect(list.notifications.map((n) => n.kind)).toEqual([
      'result_reported',
      'challenge_accepted',
    ]);
    expect(list.unread).toBe(2);
    const [newest] = list.notifications;
    const read = await creator.agent.post('/api/notifications/read', { ids: [newest!.id] });
    expect(read.json()).toEqual({ unread: 1 });
    // Another player's ids change nothing of theirs.
    expect(
      (await acceptor.agent.post('/api/notifications/read', { ids: [list.notifications[1]!.id] }))
        .statusCode,
    ).toBe(200);
    expect((await notificationsOf(creator.agent)).unread).toBe(1);
    expect((await creator.agent.post('/api/notifications/read', { all: true })).json()).toEqual({
      unread: 0,
    });
    const bad = await creator.agent.post('/api/notifications/read', {});
    expect(bad.statusCode).toBe(400);
  });
});

describe('evidence on a dispute', () => {
  const post = (agent: Agent, id: number, form: ReturnType<typeof multipartForm>) =>
    agent.request({ method: 'POST', url: `/api/challenges/${id}/evidence`, ...form });

  it('both players add statements, images and videos; both and the admins see both sides', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    const outsider = await player(5);
    await report(creator.agent, id, 3, 0);
    const early = await post(acceptor.agent, id, multipartForm({ statement: 'too early' }));
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(EVIDENCE_MESSAGES.notDisputed);
    await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'I won 2–1' });

    const statement = await post(
      acceptor.agent,
      id,
      multipartForm({ statement: 'I won 2–1; the recording shows the final whistle.' }),
    );
    expect(statement.statusCode, statement.body).toBe(201);
    const video = await post(
      acceptor.agent,
      id,
      multipartForm(
        { statement: 'The recording' },
        {
          field: 'file',
          filename: 'match.mp4',
          contentType: 'video/mp4',
          bytes: sampleFile('mp4', 8192),
        },
      ),
    );
    expect(video.statusCode, video.body).toBe(201);
    expect(video.json()).toMatchObject({
      username: acceptor.user.username,
      statement: 'The recording',
      file: { contentType: 'video/mp4', name: 'match.mp4' },
    });
    const image = await post(
      creator.agent,
      id,
      multipartForm(
        {},
        {
          field: 'file',
          filename: 'final.png',
          contentType: 'image/png',
          bytes: sampleFile('png'),
        },
      ),
    );
    expect(image.statusCode).toBe(201);

    for (const viewer of [creator.agent, acceptor.agent, admin]) {
      const list = await viewer.get(`/api/challenges/${id}/evidence`);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((e: { userId: number }) => e.userId)).toEqual([
        acceptor.user.id,
        acceptor.user.id,
        creator.user.id,
      ]);
    }
    // The other player may watch the recording; nobody else may even list the evidence.
    const file = await creator.agent.get(video.json().file.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect((await outsider.agent.get(`/api/challenges/${id}/evidence`)).statusCode).toBe(403);
    expect(
      (await post(outsider.agent, id, multipartForm({ statement: 'me too' }))).statusCode,
    ).toBe(403);
  });

  it('refuses an empty submission, a program, an over-long statement and control characters', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    await report(creator.agent, id, 3, 0);
    await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'wrong' });
    const empty = await post(acceptor.agent, id, multipartForm({ statement: '   ' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(EVIDENCE_MESSAGES.empty);
    const program = await post(
      acceptor.agent,
      id,
      multipartForm(
        {},
        { field: 'file', filename: 'clip.mp4', contentType: 'video/mp4', bytes: sampleFile('exe') },
      ),
    );
    expect(program.statusCode).toBe(415);
    expect(program.json().message).toBe(EVIDENCE_MESSAGES.invalidType);
    const long = await post(acceptor.agent, id, multipartForm({ statement: 'x'.repeat(2001) }));
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual({ statement: EVIDENCE_MESSAGES.statementMax });
    const control = await post(acceptor.agent, id, multipartForm({ statement: 'a\u0000b' }));
    expect(control.statusCode).toBe(400);
    expect(control.json().fields).toEqual({ statement: 'Must not contain control characters' });
    expect((await acceptor.agent.get(`/api/challenges/${id}/evidence`)).json()).toEqual([]);
  });

  it('takes a video over the 25 MB of pictures, and no picture over 25 MB', async () => {
    const { id, creator, acceptor } = await acceptedMatch(5);
    await report(creator.agent, id, 3, 0);
    await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'wrong' });
    const bytes = 26 * 1024 * 1024;
    const video = await post(
      acceptor.agent,
      id,
      multipartForm(
        {},
        {
          field: 'file',
          filename: 'long.webm',
          contentType: 'video/webm',
          bytes: sampleFile('webm', bytes),
        },
      ),
    );
    expect(video.statusCode, video.body).toBe(201);
    const picture = await post(
      acceptor.agent,
      id,
      multipartForm(
        {},
        {
          field: 'file',
          filename: 'huge.png',
          contentType: 'image/png',
          bytes: sampleFile('png', bytes),
        },
      ),
    );
    expect(picture.statusCode).toBe(413);
    expect(picture.json().message).toBe('File too large. Please upload a file smaller than 25MB.');
  });
});
