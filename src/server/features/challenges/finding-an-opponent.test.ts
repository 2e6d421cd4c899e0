import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CHALLENGE_MESSAGES,
  type ChallengeCounts,
  type ChallengeView,
  type CreateChallengeBody,
  type QuickMatchResponse,
} from '#shared/contracts/challenges.ts';
import type { NotificationView } from '#shared/contracts/notifications.ts';
import { queryRows } from '#server/db/client.ts';
import { users } from '#server/db/schema/users.ts';
import type { AppEvent } from '#server/lib/event-bus.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';

/**
 * Direct challenges and quick match (docs/challenges.md#finding-an-opponent): a direct challenge is
 * its two players' only, and quick match pairs players on the same terms exactly once, however many
 * ask at once.
 */
let t: TestApp;
let pushed: AppEvent[] = [];

beforeAll(async () => {
  t = await createTestApp();
  t.bus.subscribe((event) => pushed.push(event));
});
afterEach(async () => {
  pushed = [];
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const body: CreateChallengeBody = {
  game: 'Mortal Kombat 1',
  amount: 20,
  gamerTag: 'Scorpion',
  phoneNumber: '5550107000',
  console: 'Xbox',
};

async function funded(cents = 10_000n) {
  const player = await signUp(t.app);
  await fund(t.database, player.user.id, cents);
  return player;
}

/** The notifications pushed live to `userId` so far in this test, in the order they left. */
function pushedTo(userId: number): NotificationView[] {
  return pushed.flatMap((event) =>
    event.type === 'notification' && event.userId === userId ? [event.notification] : [],
  );
}

async function notificationsOf(agent: Agent): Promise<NotificationView[]> {
  const response = await agent.get('/api/notifications');
  expect(response.statusCode).toBe(200);
  return response.json<{ notifications: NotificationView[] }>().notifications;
}

const ids = (list: ChallengeView[]) => list.map((challenge) => challenge.id);

describe('direct challenges', () => {
  it('are seen, accepted and answered by their two players only', async () => {
    const creator = await funded();
    const opponent = await funded();
    const outsider = await funded();
    const created = await creator.agent.post('/api/challenges', {
      ...body,
      opponent: opponent.user.username.toUpperCase(),
    });
    expect(created.statusCode).toBe(201);
    const challenge = created.json<ChallengeView>();
    expect(challenge.opponent).toEqual({ id: opponent.user.id, username: opponent.user.username });

    // The opponent is told, live and in their list; nobody else sees it anywhere.
    const [news] = await notificationsOf(opponent.agent);
    expect(news).toMatchObject({
      kind: 'direct_challenge',
      challengeId: challenge.id,
      title: `${creator.user.username} challenges you: #${challenge.id}`,
    });
    expect(news?.body).toContain('Mortal Kombat 1 on Xbox for $20.00 each');
    expect(pushedTo(opponent.user.id)).toEqual([news]);
    for (const viewer of [creator, opponent]) {
      const direct = await viewer.agent.get('/api/challenges?role=direct&status=open');
      expect(ids(direct.json<ChallengeView[]>())).toEqual([challenge.id]);
      expect((await viewer.agent.get(`/api/challenges/${challenge.id}`)).statusCode).toBe(200);
    }
    expect(ids((await outsider.agent.get('/api/challenges?status=open')).json())).not.toContain(
      challenge.id,
    );
    expect((await outsider.agent.get('/api/challenges?role=direct')).json()).toEqual([]);
    const before = (await outsider.agent.get('/api/challenges/counts')).json<ChallengeCounts>();
    expect((await outsider.agent.get(`/api/challenges/${challenge.id}`)).statusCode).toBe(404);
    for (const action of ['accept', 'decline', 'cancel']) {
      const refused = await outsider.agent.post(`/api/challenges/${challenge.id}/${action}`);
      expect(refused.json()).toEqual({ code: 'NOT_FOUND', message: CHALLENGE_MESSAGES.notFound });
    }
    await creator.agent.post('/api/challenges', body);
    const after = (await outsider.agent.get('/api/challenges/counts')).json<ChallengeCounts>();
    expect(after.available).toBe(before.available + 1);

    const accepted = await opponent.agent.post(`/api/challenges/${challenge.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<ChallengeView>()).toMatchObject({
      status: 'accepted',
      acceptorId: opponent.user.id,
    });
    const [told] = await notificationsOf(creator.agent);
    expect(told).toMatchObject({ kind: 'challenge_accepted', challengeId: challenge.id });
    expect(pushedTo(creator.user.id)).toEqual([told]);
  });

  it('are declined by the opponent alone: the stake comes back and the creator is told', async () => {
    const creator = await funded(5_000n);
    const opponent = await funded();
    const { id } = (
      await creator.agent.post('/api/challenges', { ...body, opponent: opponent.user.username })
    ).json<ChallengeView>();
    expect(await balanceOf(t.database, creator.user.id)).toBe(3_000n);

    const byCreator = await creator.agent.post(`/api/challenges/${id}/decline`);
    expect(byCreator.statusCode).toBe(403);
    expect(byCreator.json().message).toBe(CHALLENGE_MESSAGES.onlyOpponentDeclines);

    const declined = await opponent.agent.post(`/api/challenges/${id}/decline`);
    expect(declined.statusCode).toBe(200);
    expect(declined.json<ChallengeView>()).toMatchObject({
      status: 'cancelled',
      cancelCause: 'declined',
    });
    expect(await balanceOf(t.database, creator.user.id)).toBe(5_000n);
    const [told] = await notificationsOf(creator.agent);
    expect(told).toMatchObject({
      kind: 'challenge_declined',
      title: `Challenge #${id} was declined: your stake is back`,
    });
    expect(pushedTo(creator.user.id)).toEqual([told]);

    const again = await opponent.agent.post(`/api/challenges/${id}/decline`);
    expect(again.statusCode).toBe(409);
    expect((await opponent.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(409);
    expect(await balanceOf(t.database, creator.user.id)).toBe(5_000n);
  });

  it('go only to a player who can take one, without saying why another cannot', async () => {
    const creator = await funded();
    const [suspended, deleted, onBreak] = await Promise.all([funded(), funded(), funded()]);
    await t.database.db
      .update(users)
      .set({ suspendedAt: new Date(), suspensionReason: 'Fixing' })
      .where(eq(users.id, suspended.user.id));
    await t.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, deleted.user.id));
    await t.database.db
      .update(users)
      .set({ playBreakKind: 'time_out', playBreakUntil: new Date(Date.now() + 86_400_000) })
      .where(eq(users.id, onBreak.user.id));

    for (const name of [
      'nobody_by_this_name',
      suspended.user.username,
      deleted.user.username,
      onBreak.user.username,
    ]) {
      const refused = await creator.agent.post('/api/challenges', { ...body, opponent: name });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: CHALLENGE_MESSAGES.opponentUnknown,
        fields: { opponent: CHALLENGE_MESSAGES.opponentUnknown },
      });
    }
    const self = await creator.agent.post('/api/challenges', {
      ...body,
      opponent: creator.user.username,
    });
    expect(self.json().message).toBe(CHALLENGE_MESSAGES.opponentSelf);
    // Nothing was staked by any refusal.
    expect(await balanceOf(t.database, creator.user.id)).toBe(10_000n);
  });
});

describe('quick match', () => {
  const terms = { ...body, game: 'Tekken 8', console: 'PlayStation', amount: 15 };

  async function ask(agent: Agent, overrides: Partial<typeof terms> = {}) {
    const response = await agent.post('/api/quick-match', { ...terms, ...overrides });
    expect(response.statusCode).toBe(200);
    return response.json<QuickMatchResponse>();
  }

  it('opens a challenge, keeps the place of one who asks again, and pairs the next player', async () => {
    const first = await funded(5_000n);
    const second = await funded(5_000n);
    const opened = await ask(first.agent);
    expect(opened).toMatchObject({ matched: false, challenge: { status: 'open', amount: 15 } });
    const again = await ask(first.agent);
    expect(again.challenge.id).toBe(opened.challenge.id);
    expect(await balanceOf(t.database, first.user.id)).toBe(3_500n);

    // The game's case does not matter; a direct challenge, another console or amount never match.
    const outsider = await funded();
    await outsider.agent.post('/api/challenges', {
      ...terms,
      opponent: first.user.username,
    });
    const met = await ask(second.agent, { game: 'TEKKEN 8' });
    expect(met).toMatchObject({
      matched: true,
      challenge: { id: opened.challenge.id, status: 'accepted', acceptorId: second.user.id },
    });
    expect(await balanceOf(t.database, second.user.id)).toBe(3_500n);
    const [told] = await notificationsOf(first.agent);
    expect(told).toMatchObject({ kind: 'challenge_accepted', challengeId: opened.challenge.id });
    // The outsider's direct challenge first, then the match.
    expect(pushedTo(first.user.id)).toEqual((await notificationsOf(first.agent)).reverse());

    const other = await ask(second.agent, { amount: 16 });
    expect(other.matched).toBe(false);
  });

  it('pairs twenty players asking at once on the same terms, each exactly once', async () => {
    const game = `Quick Race ${Date.now()}`;
    const players = await Promise.all(Array.from({ length: 20 }, () => funded(5_000n)));
    const answers = await Promise.all(players.map((player) => ask(player.agent, { game })));

    expect(answers.filter((answer) => answer.matched)).toHaveLength(10);
    const rows = await queryRows<{ status: string; creator_id: number; acceptor_id: number }>(
      t.database.db,
      sql`select status, creator_id, acceptor_id from challenges where game = ${game}`,
    );
    // Ten matches, all accepted, and each player in exactly one of them.
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => row.status === 'accepted')).toBe(true);
    const seated = rows.flatMap((row) => [row.creator_id, row.acceptor_id]).sort((x, y) => x - y);
    expect(seated).toEqual(players.map((player) => player.user.id).sort((x, y) => x - y));
    // Each answer names the player's own match.
    answers.forEach((answer, index) => {
      const row = rows.find((candidate) => candidate.creator_id === players[index]?.user.id);
      const mine =
        row ?? rows.find((candidate) => candidate.acceptor_id === players[index]?.user.id);
      expect(mine).toBeDefined();
      expect(answer.matched).toBe(row === undefined);
    });
    // Every player staked once: $15 of $50 each, the rest in the ten escrows.
    const balances = await Promise.all(players.map((p) => balanceOf(t.database, p.user.id)));
    expect(balances).toEqual(players.map(() => 3_500n));
  });

  it.runIf(onPostgres)(
    'meets two players who ask at once instead of opening two challenges',
    async () => {
      for (let round = 0; round < 10; round += 1) {
        const game = `Pair ${round} ${Date.now()}`;
        const [a, b] = await Promise.all([funded(), funded()]);
        const [x, y] = await Promise.all([ask(a.agent, { game }), ask(b.agent, { game })]);
        expect(x.challenge.id).toBe(y.challenge.id);
        expect([x.matched, y.matched].sort()).toEqual([false, true]);
      }
    },
  );
});

describe('opponent suggestions', () => {
  it('offer players who can take a challenge, by their first letters, and nobody else', async () => {
    const prefix = `sg${Date.now() % 100_000}`;
    const named = (suffix: string) =>
      signUp(t.app, { username: `${prefix}_${suffix}` }).then((player) => player.user);
    const viewer = await signUp(t.app, { username: `${prefix}_me` });
    const [able, suspended, deleted, onBreak, other] = await Promise.all([
      named('Able'),
      named('susp'),
      named('gone'),
      named('rest'),
      signUp(t.app).then((player) => player.user),
    ]);
    await t.database.db
      .update(users)
      .set({ suspendedAt: new Date(), suspensionReason: 'Fixing' })
      .where(eq(users.id, suspended.id));
    await t.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, deleted.id));
    await t.database.db
      .update(users)
      .set({ playBreakKind: 'time_out', playBreakUntil: new Date(Date.now() + 86_400_000) })
      .where(eq(users.id, onBreak.id));

    const found = await viewer.agent.get(`/api/players?search=${prefix.toUpperCase()}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ usernames: [able.username] });
    expect(other.username.startsWith(prefix)).toBe(false);

    // A wildcard is a letter like any other.
    expect((await viewer.agent.get(`/api/players?search=${'%25%25'}`)).json()).toEqual({
      usernames: [],
    });
    const short = await viewer.agent.get('/api/players?search=s');
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('Type at least 2 letters of a username');
  });
});
