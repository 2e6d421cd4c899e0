import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '#server/db/schema/outbox.ts';
import { ledgerAccounts } from '#server/db/schema/ledger.ts';
import { ensureAdmin } from '#server/features/accounts/admin-bootstrap.ts';
import { CHALLENGE_MESSAGES, type CreateChallengeBody } from '#shared/contracts/challenges.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { HOUSE_FEES } from '../ledger/accounts.ts';
import { EMPTY_RECORD } from './records.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const challengeBody = (overrides: Partial<CreateChallengeBody> = {}): CreateChallengeBody => ({
  game: 'FIFA 25',
  amount: 10,
  gamerTag: 'StrikerOne',
  phoneNumber: '+1 555 010 3000',
  console: 'PlayStation',
  ...overrides,
});

async function fundedPlayer(dollars: number) {
  const player = await signUp(t.app);
  if (dollars > 0) await fund(t.database, player.user.id, BigInt(dollars) * 100n);
  return player;
}

async function houseFees(): Promise<bigint> {
  const [row] = await t.database.db
    .select()
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, HOUSE_FEES));
  return row?.balanceCents ?? 0n;
}

describe('the challenge lifecycle', () => {
  it('create → accept → submit holds the winner prize − 5% for review, the house its fee; confirming pays it', async () => {
    const creator = await fundedPlayer(50);
    const acceptor = await fundedPlayer(30);
    const feesBefore = await houseFees();

    const created = await creator.agent.post(
      '/api/challenges',
      challengeBody({ amount: 20, mode: '1v1' }),
    );
    expect(created.statusCode).toBe(201);
    const challenge = created.json();
    expect(challenge).toMatchObject({
      status: 'open',
      amount: 20,
      prize: 40,
      creatorId: creator.user.id,
      acceptorId: null,
      mode: '1v1',
      platform: null,
      creator: { id: creator.user.id, username: creator.user.username },
    });
    expect(await balanceOf(t.database, creator.user.id)).toBe(3000n);
    await expectLedgerHealthy(t.database);

    const accepted = await acceptor.agent.post(`/api/challenges/${challenge.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', acceptorId: acceptor.user.id });
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(1000n);
    await expectLedgerHealthy(t.database);

    const submitted = await acceptor.agent.post(`/api/challenges/${challenge.id}/submit`, {
      creatorScore: 1,
      acceptorScore: 3,
      screenshot: 'https://i.imgur.com/abc123.png',
      notes: 'good game',
    });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toEqual({
      status: 'completed',
      winner: { id: acceptor.user.id, prize: 40, deduction: 2 },
      updatedWinnerInfo: { id: acceptor.user.id, balance: 48 },
      review: { held: 38, until: expect.any(String) },
    });
    // The SPEC's balance counts the credit; the wallet gets it once the result stands.
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(1000n);
    expect((await acceptor.agent.get('/api/user')).json()).toMatchObject({
      balance: 48,
      available: 10,
      underReview: 38,
    });
    expect(await balanceOf(t.database, creator.user.id)).toBe(3000n);
    expect((await houseFees()) - feesBefore).toBe(200n);
    await expectLedgerHealthy(t.database);
    expect((await acceptor.agent.post(`/api/challenges/${challenge.id}/confirm`)).statusCode).toBe(
      403,
    );
    const confirmed = await creator.agent.post(`/api/challenges/${challenge.id}/confirm`);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ reviewEndsAt: null, releasedAt: expect.any(String) });
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(4800n);
    expect((await acceptor.agent.get('/api/user')).json()).toMatchObject({
      balance: 48,
      available: 48,
      underReview: 0,
    });
    await expectLedgerHealthy(t.database);

    const detail = (await creator.agent.get(`/api/challenges/${challenge.id}`)).json();
    expect(detail).toMatchObject({
      status: 'completed',
      winnerId: acceptor.user.id,
      creatorScore: 1,
      acceptorScore: 3,
      winnerScreenshot: 'https://i.imgur.com/abc123.png',
      scoreData: {
        creatorScore: 1,
        acceptorScore: 3,
        screenshot: 'https://i.imgur.com/abc123.png',
      },
      notes: 'good game',
      deduction: 2,
      submittedBy: acceptor.user.id,
    });
    expect(detail.completedAt).toEqual(expect.any(String));
  });

  it('gives a tie to the acceptor', async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const response = await creator.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 2,
      acceptorScore: 2,
      screenshot: 'https://example.com/s.png',
    });
    expect(response.json().winner.id).toBe(acceptor.user.id);
  });

  it('queues a result e-mail for each player with an address, once', async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await signUp(t.app, { email: '' });
    await fund(t.database, acceptor.user.id, 1000n);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    await creator.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 5,
      acceptorScore: 1,
      screenshot: 'https://example.com/s.png',
    });
    const mails = await t.database.db
      .select()
      .from(outbox)
      .where(sql`${outbox.dedupeKey} like ${`challenge-result:${id}:%`}`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      dedupeKey: `challenge-result:${id}:${creator.user.id}`,
      recipient: 'player@example.com',
      subject: `Challenge #${id} (FIFA 25): results are in`,
      metadata: { challengeId: id, userId: creator.user.id },
    });
    expect(mails[0]!.body).toContain('you won');
  });

  it('a submission with a dispute reason moves no money and waits for an admin', async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const response = await creator.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 0,
      acceptorScore: 0,
      screenshot: 'https://example.com/s.png',
      disputeReason: 'Opponent disconnected on purpose',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'disputed', winner: { deduction: 0 } });
    expect(await balanceOf(t.database, creator.user.id)).toBe(0n);
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(0n);
    const detail = (await creator.agent.get(`/api/challenges/${id}`)).json();
    expect(detail).toMatchObject({
      status: 'disputed',
      disputeReason: 'Opponent disconnected on purpose',
    });
  });

  it('the creator can cancel an open challenge and gets the stake back', async () => {
    const creator = await fundedPlayer(10);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    expect(await balanceOf(t.database, creator.user.id)).toBe(0n);
    const response = await creator.agent.post(`/api/challenges/${id}/cancel`);
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('cancelled');
    expect(await balanceOf(t.database, creator.user.id)).toBe(1000n);
    const again = await creator.agent.post(`/api/challenges/${id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(await balanceOf(t.database, creator.user.id)).toBe(1000n);
  });

  it('the other player may dispute a completed result within 24 hours, once', async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    await creator.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 9,
      acceptorScore: 1,
      screenshot: 'https://example.com/s.png',
    });
    const own = await creator.agent.post(`/api/challenges/${id}/dispute`, {
      reason: 'changed my mind',
    });
    expect(own.statusCode).toBe(403);
    const empty = await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: '  ' });
    expect(empty.json().message).toBe(CHALLENGE_MESSAGES.disputeReasonRequired);
    const dispute = await acceptor.agent.post(`/api/challenges/${id}/dispute`, {
      reason: 'The score was 1-9 for me',
    });
    expect(dispute.statusCode).toBe(200);
    expect(dispute.json()).toMatchObject({
      status: 'disputed',
      disputeReason: 'The score was 1-9 for me',
    });
    const twice = await acceptor.agent.post(`/api/challenges/${id}/dispute`, { reason: 'again' });
    expect(twice.statusCode).toBe(409);
  });
});

describe('refusals', () => {
  it('creating without the balance is refused and leaves no challenge', async () => {
    const poor = await fundedPlayer(5);
    const response = await poor.agent.post('/api/challenges', challengeBody({ amount: 6 }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
    });
    const mine = (await poor.agent.get('/api/challenges?role=created')).json();
    expect(mine).toEqual([]);
  });

  it.each([
    [{ amount: 0 }, CHALLENGE_MESSAGES.amountMin],
    [{ amount: 10_001 }, CHALLENGE_MESSAGES.amountMax],
    [{ amount: 2.5 }, CHALLENGE_MESSAGES.amountWhole],
    [{ amount: '10' as unknown as number }, CHALLENGE_MESSAGES.amountWhole],
    [{ game: ' ' }, CHALLENGE_MESSAGES.gameRequired],
    [{ game: 'g'.repeat(81) }, CHALLENGE_MESSAGES.gameMax],
    [{ gamerTag: 't'.repeat(41) }, CHALLENGE_MESSAGES.gamerTagMax],
    [{ console: 'Dreamcast' as 'PC' }, CHALLENGE_MESSAGES.console],
    [{ phoneNumber: 'call me' }, 'Phone number must be at least 10 digits'],
  ])('refuses %o with %s', async (override, message) => {
    const player = await fundedPlayer(20_000);
    const response = await player.agent.post('/api/challenges', challengeBody(override));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await balanceOf(t.database, player.user.id)).toBe(2_000_000n);
  });

  it('accepting your own challenge, a non-open one, or without balance is refused; nothing moves', async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const third = await fundedPlayer(10);
    const broke = await fundedPlayer(0);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();

    const own = await creator.agent.post(`/api/challenges/${id}/accept`);
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({
      code: 'OWN_CHALLENGE',
      message: CHALLENGE_MESSAGES.ownChallenge,
    });

    const noMoney = await broke.agent.post(`/api/challenges/${id}/accept`);
    expect(noMoney.json()).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });

    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const late = await third.agent.post(`/api/challenges/${id}/accept`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'CHALLENGE_NOT_OPEN',
      message: CHALLENGE_MESSAGES.notOpen,
    });
    expect(await balanceOf(t.database, third.user.id)).toBe(1000n);

    const missing = await third.agent.post('/api/challenges/999999/accept');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Challenge not found');
  });

  it("submitting as a non-participant, on an open challenge, or twice is refused; the opponent's other result disputes", async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const outsider = await fundedPlayer(10);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    const scores = { creatorScore: 1, acceptorScore: 0, screenshot: 'https://example.com/s.png' };

    const onOpen = await creator.agent.post(`/api/challenges/${id}/submit`, scores);
    expect(onOpen.statusCode).toBe(409);
    expect(onOpen.json().message).toBe(CHALLENGE_MESSAGES.notAccepted);

    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const stranger = await outsider.agent.post(`/api/challenges/${id}/submit`, scores);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toMatchObject({ code: 'NOT_PARTICIPANT' });

    expect((await creator.agent.post(`/api/challenges/${id}/submit`, scores)).statusCode).toBe(200);
    const twice = await creator.agent.post(`/api/challenges/${id}/submit`, scores);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(CHALLENGE_MESSAGES.alreadySubmitted);
    // The opponent's own, different result is their answer during the review: a dispute.
    const other = await acceptor.agent.post(`/api/challenges/${id}/submit`, {
      ...scores,
      creatorScore: 0,
      acceptorScore: 5,
    });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ status: 'disputed', winner: { id: acceptor.user.id } });
    const detail = (await creator.agent.get(`/api/challenges/${id}`)).json();
    expect(detail).toMatchObject({
      status: 'disputed',
      winnerId: creator.user.id,
      disputeReason: 'The other player reported 0–5',
    });
    // Nothing reached a wallet: the credit waits in review for an admin.
    expect(await balanceOf(t.database, creator.user.id)).toBe(0n);
    expect(await balanceOf(t.database, acceptor.user.id)).toBe(0n);
    expect((await creator.agent.get('/api/user')).json()).toMatchObject({ underReview: 19 });
    await expectLedgerHealthy(t.database);
  });

  it.each([
    [{ screenshot: '' }, CHALLENGE_MESSAGES.screenshotRequired],
    [{ screenshot: undefined }, CHALLENGE_MESSAGES.screenshotRequired],
    [{ screenshot: 'http://example.com/s.png' }, CHALLENGE_MESSAGES.screenshotHttps],
    [{ screenshot: 'javascript:alert(1)' }, CHALLENGE_MESSAGES.screenshotHttps],
    [{ screenshot: ' JavaScript:alert(1)' }, CHALLENGE_MESSAGES.screenshotHttps],
    [{ creatorScore: -1 }, CHALLENGE_MESSAGES.scoreMin],
    [{ creatorScore: 1.5 }, CHALLENGE_MESSAGES.scoreWhole],
    [{ acceptorScore: 1_000_001 }, CHALLENGE_MESSAGES.scoreMax],
  ])('refuses score payload %o with %s', async (override, message) => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const response = await creator.agent.post(`/api/challenges/${id}/submit`, {
      creatorScore: 1,
      acceptorScore: 0,
      screenshot: 'https://example.com/s.png',
      ...override,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('only the creator may cancel', async () => {
    const creator = await fundedPlayer(10);
    const other = await fundedPlayer(0);
    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    const response = await other.agent.post(`/api/challenges/${id}/cancel`);
    expect(response.statusCode).toBe(403);
    expect(await balanceOf(t.database, creator.user.id)).toBe(0n);
  });
});

describe('reading challenges', () => {
  it('filters by status and role, pages by id, and counts for the tabs', async () => {
    const me = await fundedPlayer(100);
    const rival = await fundedPlayer(100);
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await me.agent.post('/api/challenges', challengeBody())).json().id);
    await rival.agent.post(`/api/challenges/${ids[0]}/accept`);

    const created = (await me.agent.get('/api/challenges?role=created')).json();
    expect(created.map((c: { id: number }) => c.id)).toEqual([...ids].reverse());
    const accepted = (
      await rival.agent.get('/api/challenges?role=accepted&status=accepted')
    ).json();
    expect(accepted.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
    const page = (
      await me.agent.get(`/api/challenges?role=created&limit=1&before=${ids[2]}`)
    ).json();
    expect(page.map((c: { id: number }) => c.id)).toEqual([ids[1]]);

    const counts = (await me.agent.get('/api/challenges/counts')).json();
    expect(counts).toMatchObject({ active: 1, completed: 0, created: 3, accepted: 0 });
    expect(counts.available).toBeGreaterThanOrEqual(2);
    expect((await me.agent.get('/api/challenges?limit=101')).statusCode).toBe(400);
  });

  it('shows phone numbers to the players and admins only, e-mails and balances to admins only', async () => {
    const creator = await fundedPlayer(10);
    const acceptor = await fundedPlayer(10);
    const stranger = await fundedPlayer(0);
    const adminName = uniqueUsername('chadmin');
    await ensureAdmin(t.database.db, t.bus, adminName, 'admin-password');
    const admin = new Agent(t.app);
    await admin.post('/api/login', { username: adminName, password: 'admin-password' });

    const { id } = (await creator.agent.post('/api/challenges', challengeBody())).json();
    const seenByStranger = (await stranger.agent.get(`/api/challenges/${id}`)).json();
    expect(seenByStranger.phoneNumber).toBeNull();
    // The record is public (docs/fair-play.md): it is what an opponent looks at before accepting.
    expect(seenByStranger.creator).toEqual({
      id: creator.user.id,
      username: creator.user.username,
      record: EMPTY_RECORD,
    });

    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const seenByAcceptor = (await acceptor.agent.get(`/api/challenges/${id}`)).json();
    expect(seenByAcceptor.phoneNumber).toBe('+1 555 010 3000');
    expect(seenByAcceptor.creator.phoneNumber).toBe('+1 555 010 2000');
    expect(seenByAcceptor.creator.email).toBeUndefined();

    const seenByAdmin = (await admin.get(`/api/challenges/${id}`)).json();
    expect(seenByAdmin.creator).toMatchObject({ email: 'player@example.com', balance: 0 });
    expect(seenByAdmin.acceptor).toMatchObject({
      id: acceptor.user.id,
      email: 'player@example.com',
      balance: 0,
    });
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/challenges' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/challenges/1' })).statusCode).toBe(401);
  });
});
