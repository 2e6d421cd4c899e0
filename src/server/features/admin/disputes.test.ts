import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '#server/db/client.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerAccounts, ledgerTransfers } from '#server/db/schema/ledger.ts';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { challengeEscrow, HOUSE_FEES, HOUSE_UNCLAIMED } from '../ledger/accounts.ts';
import { auditEntriesFor, signInAdmin } from './testing/admin-agent.ts';

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

type Player = Awaited<ReturnType<typeof signUp>>;

async function accountBalance(key: string): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, key));
  return row?.balanceCents ?? 0n;
}

/** Two players with $50 each in a $10 challenge, accepted. */
async function acceptedChallenge() {
  const creator = await signUp(t.app, { email: 'creator@example.com' });
  const acceptor = await signUp(t.app, { email: 'acceptor@example.com' });
  await fund(t.database, creator.user.id, 5_000n);
  await fund(t.database, acceptor.user.id, 5_000n);
  const { id } = (
    await creator.agent.post('/api/challenges', {
      game: 'Tekken 8',
      amount: 10,
      gamerTag: 'Kazuya',
      phoneNumber: '5550108000',
      console: 'PlayStation',
      mode: 'Ranked',
    })
  ).json<{ id: number }>();
  await acceptor.agent.post(`/api/challenges/${id}/accept`);
  return { id, creator, acceptor };
}

function submit(
  player: Player,
  id: number,
  scores: { creatorScore: number; acceptorScore: number },
  disputeReason?: string,
) {
  return player.agent.post(`/api/challenges/${id}/submit`, {
    ...scores,
    screenshot: 'https://example.com/result.png',
    notes: 'GG',
    ...(disputeReason ? { disputeReason } : {}),
  });
}

/** Disputed with the submission: the stakes never left escrow. */
async function disputedBeforeSettlement() {
  const game = await acceptedChallenge();
  expect(
    (await submit(game.acceptor, game.id, { creatorScore: 1, acceptorScore: 3 }, 'lag')).json()
      .status,
  ).toBe('disputed');
  return game;
}

/**
 * Settled for the acceptor's wallet at submission, as results were before reviews existed
 * (migration 0009's call, which instances of that release still make), then disputed by the
 * creator within the 24 hours such results keep.
 */
async function disputedAfterSettlement() {
  const game = await acceptedChallenge();
  const acceptorId = game.acceptor.user.id;
  await queryRows(
    t.database.db,
    sql`select * from challenge_record_result(${game.id}::integer, 'completed',
      ${acceptorId}::integer, 1, 3, 'https://example.com/result.png', 'GG', null,
      ${acceptorId}::integer, 2000, 100, now(), '[]'::jsonb)`,
  );
  expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_900n);
  const dispute = await game.creator.agent.post(`/api/challenges/${game.id}/dispute`, {
    reason: 'The screenshot is from another match',
  });
  expect(dispute.json().status).toBe('disputed');
  return game;
}

function resolve(id: number, outcome: string, note = 'Reviewed the recording') {
  return admin.post(`/api/admin/disputes/${id}/resolve`, { outcome, note });
}

async function transfersOf(id: number) {
  return t.database.db
    .select()
    .from(ledgerTransfers)
    .where(
      and(
        eq(ledgerTransfers.referenceType, 'challenge'),
        eq(ledgerTransfers.referenceId, String(id)),
      ),
    )
    .orderBy(ledgerTransfers.id);
}

describe('GET /api/admin/challenges and /api/admin/disputes', () => {
  it('lists completed challenges with every field of the View Details dialog', async () => {
    const { id, creator, acceptor } = await acceptedChallenge();
    await submit(creator, id, { creatorScore: 7, acceptorScore: 2 });
    const list = (await admin.get('/api/admin/challenges')).json<Array<{ id: number }>>();
    const found = list.find((c) => c.id === id);
    expect(found).toMatchObject({
      status: 'completed',
      game: 'Tekken 8',
      mode: 'Ranked',
      console: 'PlayStation',
      amount: 10,
      prize: 20,
      deduction: 1,
      winnerId: creator.user.id,
      creatorScore: 7,
      acceptorScore: 2,
      winnerScreenshot: 'https://example.com/result.png',
      notes: 'GG',
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      creator: {
        id: creator.user.id,
        username: creator.user.username,
        email: 'creator@example.com',
        balance: 59,
      },
      acceptor: {
        id: acceptor.user.id,
        username: acceptor.user.username,
        email: 'acceptor@example.com',
        balance: 40,
      },
    });
    expect(list.every((c) => (c as { status?: string }).status === 'completed')).toBe(true);
  });

  it('lists disputes saying whether the stakes still wait in escrow', async () => {
    const before = await disputedBeforeSettlement();
    const after = await disputedAfterSettlement();
    const list = (await admin.get('/api/admin/disputes')).json<
      Array<{ id: number; stakesInEscrow: boolean; disputeReason: string }>
    >();
    expect(list.find((d) => d.id === before.id)).toMatchObject({
      stakesInEscrow: true,
      disputeReason: 'lag',
    });
    expect(list.find((d) => d.id === after.id)).toMatchObject({
      stakesInEscrow: false,
      disputeReason: 'The screenshot is from another match',
    });
  });
});

describe('resolving a dispute raised with the submission (stakes in escrow)', () => {
  it.each(['creator', 'acceptor'] as const)(
    'awarding the %s pays prize − fee and the fee to the house',
    async (outcome) => {
      const game = await disputedBeforeSettlement();
      const feesBefore = await accountBalance(HOUSE_FEES);
      const response = await resolve(game.id, outcome);
      expect(response.statusCode).toBe(200);
      const winner = game[outcome];
      const loser = outcome === 'creator' ? game.acceptor : game.creator;
      expect(response.json()).toMatchObject({
        status: 'completed',
        winnerId: winner.user.id,
        deduction: 1,
      });
      expect(await balanceOf(t.database, winner.user.id)).toBe(5_900n);
      expect(await balanceOf(t.database, loser.user.id)).toBe(4_000n);
      expect(await accountBalance(HOUSE_FEES)).toBe(feesBefore + 100n);
      expect(await accountBalance(challengeEscrow(game.id))).toBe(0n);
    },
  );

  it('refunding returns both stakes and cancels the challenge', async () => {
    const game = await disputedBeforeSettlement();
    const response = await resolve(game.id, 'refund', 'Both players disconnected');
    expect(response.json()).toMatchObject({ status: 'cancelled', winnerId: null, deduction: null });
    expect(await balanceOf(t.database, game.creator.user.id)).toBe(5_000n);
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_000n);
    expect(await accountBalance(challengeEscrow(game.id))).toBe(0n);

    const [audit] = await auditEntriesFor(t.database, { type: 'challenge', id: game.id });
    expect(audit).toMatchObject({
      action: 'dispute.resolve',
      actorUserId: adminId,
      reason: 'Both players disconnected',
      details: { outcome: 'refund', winnerId: null, reversedTransferId: null },
    });
  });

  it('decides once: a second resolution is refused and moves nothing', async () => {
    const game = await disputedBeforeSettlement();
    expect((await resolve(game.id, 'creator')).statusCode).toBe(200);
    const again = await resolve(game.id, 'acceptor');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'CHALLENGE_NOT_DISPUTED',
      message: ADMIN_MESSAGES.notDisputed,
    });
    expect(await balanceOf(t.database, game.creator.user.id)).toBe(5_900n);
  });
});

describe('resolving a dispute raised after a settlement from before reviews', () => {
  it('awarding the other player reverses the settlement by a transfer that names it', async () => {
    const game = await disputedAfterSettlement();
    const feesBefore = await accountBalance(HOUSE_FEES);
    const response = await resolve(game.id, 'creator', 'Screenshot was from another match');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'completed', winnerId: game.creator.user.id });
    expect(await balanceOf(t.database, game.creator.user.id)).toBe(5_900n);
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(4_000n);
    expect(await accountBalance(HOUSE_FEES)).toBe(feesBefore);
    expect(await accountBalance(challengeEscrow(game.id))).toBe(0n);

    const transfers = await transfersOf(game.id);
    const settle = transfers.find((tr) => tr.idempotencyKey === `settle:${game.id}`);
    const reversal = transfers.find((tr) => tr.kind === 'reversal');
    expect(reversal).toMatchObject({
      reversesTransferId: settle?.id,
      actorUserId: adminId,
      memo: 'Screenshot was from another match',
    });
    expect(transfers.map((tr) => tr.kind)).toEqual([
      'stake',
      'stake',
      'settlement',
      'reversal',
      'settlement',
    ]);
    const [audit] = await auditEntriesFor(t.database, { type: 'challenge', id: game.id });
    expect(audit?.details).toMatchObject({
      outcome: 'creator',
      reversedTransferId: settle?.id.toString(),
      reversalTransferId: reversal?.id.toString(),
    });
  });

  it('refunding reverses the settlement and returns both stakes', async () => {
    const game = await disputedAfterSettlement();
    const response = await resolve(game.id, 'refund');
    expect(response.json()).toMatchObject({ status: 'cancelled' });
    expect(await balanceOf(t.database, game.creator.user.id)).toBe(5_000n);
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_000n);
    expect(await accountBalance(challengeEscrow(game.id))).toBe(0n);
  });

  it('upholding the paid winner moves no money', async () => {
    const game = await disputedAfterSettlement();
    const before = (await transfersOf(game.id)).length;
    const response = await resolve(game.id, 'acceptor');
    expect(response.json()).toMatchObject({ status: 'completed', winnerId: game.acceptor.user.id });
    expect((await transfersOf(game.id)).length).toBe(before);
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_900n);
  });

  it('refuses to reverse winnings already withdrawn, and moves nothing', async () => {
    const game = await disputedAfterSettlement();
    await game.acceptor.agent.post('/api/payouts', {
      amount: 59,
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qgone',
      phoneNumber: '5550108000',
    });
    const response = await resolve(game.id, 'creator');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: ADMIN_MESSAGES.reversalNotCovered,
    });
    expect((await admin.get(`/api/challenges/${game.id}`)).json().status).toBe('disputed');
    expect(await balanceOf(t.database, game.creator.user.id)).toBe(4_000n);
    expect(await auditEntriesFor(t.database, { type: 'challenge', id: game.id })).toEqual([]);
  });

  it('an admin’s decision is final: the players cannot dispute it again', async () => {
    const game = await acceptedChallenge();
    // The acceptor reports a creator win; the creator, who did not submit, may dispute it.
    await submit(game.acceptor, game.id, { creatorScore: 5, acceptorScore: 0 });
    await game.creator.agent.post(`/api/challenges/${game.id}/dispute`, { reason: 'wrong score' });
    expect((await resolve(game.id, 'acceptor')).statusCode).toBe(200);
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_900n);
    const again = await game.creator.agent.post(`/api/challenges/${game.id}/dispute`, {
      reason: 'I disagree with the admin',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CHALLENGE_MESSAGES.decidedByAdmin);
    expect((await admin.get(`/api/challenges/${game.id}`)).json().status).toBe('completed');
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_900n);
    const reversals = (await transfersOf(game.id)).filter((tr) => tr.kind === 'reversal');
    expect(reversals).toHaveLength(1);
  });
});

describe('resolution rules', () => {
  it('credits a deleted player’s share to house:unclaimed, never to their swept wallet', async () => {
    const game = await acceptedChallenge();
    await admin.request({ method: 'DELETE', url: `/api/admin/users/${game.creator.user.id}` });
    const unclaimedBefore = await accountBalance(HOUSE_UNCLAIMED);
    const response = await resolve(game.id, 'refund');
    expect(response.statusCode).toBe(200);
    expect(await balanceOf(t.database, game.creator.user.id)).toBe(0n);
    expect(await balanceOf(t.database, game.acceptor.user.id)).toBe(5_000n);
    expect(await accountBalance(HOUSE_UNCLAIMED)).toBe(unclaimedBefore + 1_000n);
  });

  it('refuses a challenge that is not disputed, an unknown one and a bad body', async () => {
    const game = await acceptedChallenge();
    expect((await resolve(game.id, 'creator')).statusCode).toBe(409);
    expect((await resolve(999_999, 'creator')).statusCode).toBe(404);
    const badOutcome = await resolve(game.id, 'both');
    expect(badOutcome.statusCode).toBe(400);
    expect(badOutcome.json().message).toBe(ADMIN_MESSAGES.outcomeInvalid);
    const noNote = await admin.post(`/api/admin/disputes/${game.id}/resolve`, {
      outcome: 'refund',
    });
    expect(noNote.json().message).toBe(ADMIN_MESSAGES.noteRequired);
  });
});
