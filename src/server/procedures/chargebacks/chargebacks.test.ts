import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACK_MESSAGES, type AdminChargeback } from '#shared/contracts/chargebacks.ts';
import { disputedPaymentReason, moneyLockMessage } from '#shared/money-lock.ts';
import pino from 'pino';
import { createAppContext } from '#server/context.ts';
import { queryRows } from '#server/db/client.ts';
import { auditLog } from '#server/db/schema/audit-log.ts';
import { cardDisputes } from '#server/db/schema/card-disputes.ts';
import { payouts } from '#server/db/schema/payouts.ts';
import { tournamentEntries } from '#server/db/schema/tournaments.ts';
import {
  HOUSE_ADJUSTMENTS,
  HOUSE_UNCLAIMED,
  playerReceivable,
  userWallet,
} from '#server/features/ledger/accounts.ts';
import { checkLedgerInvariants } from '#server/features/ledger/invariants.ts';
import { createLedger, ledgerPostCall, POSTED_COLUMNS } from '#server/features/ledger/ledger.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../../features/admin/testing/admin-agent.ts';
import { selectPaymentProviders } from '../../features/payments/index.ts';
import {
  CHALLENGE_BODY,
  PAYOUT_BODY,
  TOURNAMENT_BODY,
  inAnHour,
} from '../../security/testing/world.ts';
import { runEvidencePass } from './evidence.ts';
import { depositByCard, disputeInSandbox } from './testing/card-money.ts';

let t: TestApp;
let admin: Agent;
const testLedger = createLedger(createLocalBus());

beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

interface Money {
  balance: number;
  available: number;
  debt: number;
  moneyLock: { reason: string; since: string } | null;
}

async function moneyOf(agent: Agent): Promise<Money> {
  const response = await agent.get('/api/user');
  expect(response.statusCode).toBe(200);
  const { balance, available, debt, moneyLock } = response.json<Money>();
  return { balance, available, debt, moneyLock };
}

/**
 * Stakes `amount` of the player's wallet in a match an opponent accepted: money a dispute leaves
 * in escrow, so that the wallet lacks it.
 */
async function stakeInMatch(agent: Agent, amount: number): Promise<number> {
  const created = await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount });
  expect(created.statusCode).toBe(201);
  const id = created.json<{ id: number }>().id;
  const opponent = await signUp(t.app);
  await fund(t.database, opponent.user.id, BigInt(amount) * 100n);
  expect((await opponent.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  return id;
}

async function depositByCrypto(agent: Agent, amount: string): Promise<void> {
  const created = await agent.post('/api/create-crypto-payment', { amount });
  expect(created.statusCode).toBe(200);
  const { paymentId } = created.json<{ paymentId: string }>();
  const paid = await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, {
    status: 'finished',
  });
  expect(paid.statusCode).toBe(200);
}

const dispute = (paymentIntentId: string): Promise<string> =>
  disputeInSandbox(admin, paymentIntentId);

async function close(disputeId: string, status: 'won' | 'lost') {
  return admin.post(`/api/sandbox/card/disputes/${disputeId}/close`, { status });
}

async function disputeRow(disputeId: string) {
  const [row] = await t.database.db
    .select()
    .from(cardDisputes)
    .where(eq(cardDisputes.providerDisputeId, disputeId));
  if (!row) throw new Error(`no dispute ${disputeId}`);
  return row;
}

async function transactionKinds(agent: Agent): Promise<string[]> {
  const response = await agent.get('/api/transactions');
  expect(response.statusCode).toBe(200);
  return response.json<{ items: Array<{ kind: string }> }>().items.map((row) => row.kind);
}

const lockedRefusal = (reason: string) => ({
  code: 'MONEY_LOCKED',
  message: moneyLockMessage({ reason, since: '' }),
});

describe('a disputed card payment', () => {
  it('is taken from the wallet, and the money is locked with the reason', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '40');
    const disputeId = await dispute(intentId);

    const money = await moneyOf(agent);
    expect(money).toMatchObject({ balance: 0, available: 0, debt: 0 });
    expect(money.moneyLock?.reason).toBe(disputedPaymentReason('$40.00'));
    expect(await transactionKinds(agent)).toEqual(['chargeback', 'deposit']);
    expect(await disputeRow(disputeId)).toMatchObject({
      outcome: 'open',
      amountCents: 4000n,
      reason: 'fraudulent',
      providerStatus: 'needs_response',
    });
    const notifications = (await agent.get('/api/notifications')).json<{
      notifications: Array<{ kind: string; body: string }>;
    }>().notifications;
    expect(notifications.find((news) => news.kind === 'money_locked')?.body).toContain(
      'Your bank took back $40.00 you paid by card.',
    );
  });

  it('records what the wallet lacks as debt, leaving the escrow of a match under way', async () => {
    const { agent } = await signUp(t.app);
    const opponent = await signUp(t.app);
    await fund(t.database, opponent.user.id, 1000n);
    const intentId = await depositByCard(agent, '25');
    const created = await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 10 });
    expect(created.statusCode).toBe(201);
    const challengeId = created.json<{ id: number }>().id;
    expect((await opponent.agent.post(`/api/challenges/${challengeId}/accept`)).statusCode).toBe(
      200,
    );

    await dispute(intentId);
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 10 });
    // The match goes on: its escrow still holds both stakes.
    const challenge = await opponent.agent.get(`/api/challenges/${challengeId}`);
    expect(challenge.json<{ status: string }>().status).toBe('accepted');
  });

  it('refuses card deposits, stakes, entries and payouts, and lets a crypto deposit repay', async () => {
    const { agent } = await signUp(t.app);
    const owner = await signUp(t.app);
    await fund(t.database, owner.user.id, 1000n);
    const open = await owner.agent.post('/api/challenges', CHALLENGE_BODY);
    const tournament = await admin.post('/api/admin/tournaments', {
      ...TOURNAMENT_BODY,
      startsAt: inAnHour(),
    });
    expect(tournament.statusCode).toBe(201);
    const intentId = await depositByCard(agent, '30');
    await stakeInMatch(agent, 20);
    await dispute(intentId);
    const reason = disputedPaymentReason('$30.00');

    const refusals = [
      await agent.post('/api/create-payment-intent', { amount: '10' }),
      await agent.post('/api/challenges', CHALLENGE_BODY),
      await agent.post(`/api/challenges/${open.json<{ id: number }>().id}/accept`),
      await agent.post(`/api/tournaments/${tournament.json<{ id: number }>().id}/join`),
      await agent.post('/api/payouts', PAYOUT_BODY),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'MONEY_LOCKED' });
      expect(refused.json<{ message: string }>().message).toBe(lockedRefusal(reason).message);
    }

    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 20 });
    await depositByCrypto(agent, '25');
    expect(await moneyOf(agent)).toMatchObject({ available: 5, debt: 0 });
    expect(await transactionKinds(agent)).toEqual([
      'debt_repayment',
      'deposit',
      'chargeback',
      'stake',
      'deposit',
    ]);
    // Tournaments left open would be started by other files' workers on a shared database.
    await admin.post(`/api/admin/tournaments/${tournament.json<{ id: number }>().id}/cancel`);
  });

  it('returns payouts that have not left to the wallet first, then takes the card money', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '50');
    // Card money waits to clear before it may leave: the payout is of an admin's credit.
    await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '30' });
    const requested = await agent.post('/api/payouts', { ...PAYOUT_BODY, amount: 30 });
    expect(requested.statusCode).toBe(201);
    expect(await moneyOf(agent)).toMatchObject({ available: 50 });

    await dispute(intentId);
    const [payout] = await t.database.db.select().from(payouts).where(eq(payouts.userId, user.id));
    expect(payout).toMatchObject({
      status: 'failed',
      stage: 'failed',
      failureReason: disputedPaymentReason('$50.00'),
    });
    expect(await moneyOf(agent)).toMatchObject({ available: 30, debt: 0 });
    // The player is not told the amount is back in their balance: the bank took it.
    const told = await agent.get('/api/notifications');
    const failed = told
      .json<{ notifications: Array<{ kind: string; body: string }> }>()
      .notifications.find((news) => news.kind === 'payout_failed');
    expect(failed?.body).toBe(
      `Payout #${payout?.id} could not be completed (${disputedPaymentReason('$50.00')}). ` +
        'The amount went back to your balance, towards the card payment your bank took back.',
    );
  });

  it('withdraws the open challenges and tournament places, so no accomplice can take them', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '30');
    const open = await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 10 });
    expect(open.statusCode).toBe(201);
    const tournament = await admin.post('/api/admin/tournaments', {
      ...TOURNAMENT_BODY,
      startsAt: inAnHour(),
    });
    const tournamentId = tournament.json<{ id: number }>().id;
    expect((await agent.post(`/api/tournaments/${tournamentId}/join`)).statusCode).toBe(200);
    expect(await moneyOf(agent)).toMatchObject({ available: 15 });

    await dispute(intentId);
    const challenge = await agent.get(`/api/challenges/${open.json<{ id: number }>().id}`);
    expect(challenge.json()).toMatchObject({ status: 'cancelled' });
    const entries = await t.database.db
      .select()
      .from(tournamentEntries)
      .where(
        and(
          eq(tournamentEntries.tournamentId, tournamentId),
          eq(tournamentEntries.userId, user.id),
        ),
      );
    expect(entries.map((entry) => entry.status)).toEqual(['left']);
    // Both came back to the wallet, which then paid the whole chargeback: nothing is owed.
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 0 });
    await admin.post(`/api/admin/tournaments/${tournamentId}/cancel`);
  });

  it('pays a debt first from an admin credit', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '15');
    await stakeInMatch(agent, 15);
    await dispute(intentId);
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 15 });

    const credit = await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '20' });
    expect(credit.statusCode).toBe(200);
    // The answer is the balance after the debt was paid.
    expect(credit.json()).toEqual({ balance: 5 });
    expect(await moneyOf(agent)).toMatchObject({ available: 5, debt: 0 });
  });
});

describe('closing a dispute', () => {
  it('when won, gives the money back, the debt first, and keeps the lock for an admin', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '30');
    await stakeInMatch(agent, 20);
    const disputeId = await dispute(intentId);
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 20 });

    const won = await close(disputeId, 'won');
    expect(won.statusCode).toBe(200);
    expect(won.json()).toEqual({ id: disputeId, status: 'won' });
    const money = await moneyOf(agent);
    expect(money).toMatchObject({ available: 10, debt: 0 });
    expect(money.moneyLock).not.toBeNull();
    expect(await disputeRow(disputeId)).toMatchObject({ outcome: 'won', providerStatus: 'won' });

    const again = await close(disputeId, 'lost');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.alreadyClosed });
    expect(await moneyOf(agent)).toMatchObject({ available: 10, debt: 0 });
  });

  it('when lost, keeps the debt until it is repaid, and the lock until an admin lifts it', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '12.50');
    await stakeInMatch(agent, 12);
    const disputeId = await dispute(intentId);
    expect((await close(disputeId, 'lost')).statusCode).toBe(200);
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 12 });

    const early = await admin.post(`/api/admin/users/${user.id}/money-lock/lift`, {});
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.stillOwes('$12.00') });

    await depositByCrypto(agent, '12');
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 0 });
    const lifted = await admin.post(`/api/admin/users/${user.id}/money-lock/lift`, {
      note: 'Repaid by crypto',
    });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toEqual({ message: CHARGEBACK_MESSAGES.lifted, userId: user.id });
    expect((await moneyOf(agent)).moneyLock).toBeNull();
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'user.money_lock_lifted'), eq(auditLog.targetId, String(user.id))),
      );
    expect(entry).toMatchObject({ reason: 'Repaid by crypto' });

    const twice = await admin.post(`/api/admin/users/${user.id}/money-lock/lift`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.notLocked });
    expect((await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 1 })).statusCode).toBe(
      400,
    );
  });
});

describe('a dispute of a closed account', () => {
  async function houseBalance(key: string): Promise<bigint> {
    const [row] = await queryRows<{ balance: string }>(
      t.database.db,
      sql`select balance_cents::text as balance from ledger_accounts where key = ${key}`,
    );
    return BigInt(row?.balance ?? '0');
  }

  it('takes what the house holds for the player, never a debt, and gives it back when won', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '40');
    const deleted = await admin.request({
      method: 'DELETE',
      url: `/api/admin/users/${user.id}`,
      payload: { reason: 'Requested by the player' },
    });
    expect(deleted.statusCode).toBe(200);
    const unclaimed = await houseBalance(HOUSE_UNCLAIMED);
    const adjustments = await houseBalance(HOUSE_ADJUSTMENTS);

    const disputeId = await dispute(intentId);
    expect(await houseBalance(HOUSE_UNCLAIMED)).toBe(unclaimed - 4000n);
    expect(await houseBalance(HOUSE_ADJUSTMENTS)).toBe(adjustments);
    expect(await houseBalance(playerReceivable(user.id))).toBe(0n);
    expect((await close(disputeId, 'won')).statusCode).toBe(200);
    expect(await houseBalance(HOUSE_UNCLAIMED)).toBe(unclaimed);
  });

  it('won after the account closed, keeps the money for the player in house:unclaimed', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '40');
    const disputeId = await dispute(intentId);
    const deleted = await admin.request({
      method: 'DELETE',
      url: `/api/admin/users/${user.id}`,
      payload: { reason: 'Requested by the player' },
    });
    expect(deleted.statusCode).toBe(200);
    const unclaimed = await houseBalance(HOUSE_UNCLAIMED);
    expect((await close(disputeId, 'won')).statusCode).toBe(200);
    expect(await houseBalance(HOUSE_UNCLAIMED)).toBe(unclaimed + 4000n);
    expect(await houseBalance(userWallet(user.id))).toBe(0n);
  });
});

describe('the sandbox dispute routes', () => {
  it('refuse a second dispute of one payment, and unknown or unpaid payments', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '10');
    await dispute(intentId);
    const second = await admin.post('/api/sandbox/card/disputes', { paymentIntentId: intentId });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.alreadyDisputed });
    expect(await moneyOf(agent)).toMatchObject({ available: 0, debt: 0 });

    const unknown = await admin.post('/api/sandbox/card/disputes', { paymentIntentId: 'pi_nope' });
    expect(unknown.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.paymentNotFound });
    expect(unknown.statusCode).toBe(404);
    // The locked player cannot start a card payment: another player leaves one unpaid.
    const other = await signUp(t.app);
    const unpaid = await other.agent.post('/api/create-payment-intent', { amount: '10' });
    const unpaidId = unpaid.json<{ paymentIntentId: string }>().paymentIntentId;
    expect(
      (await admin.post('/api/sandbox/card/disputes', { paymentIntentId: unpaidId })).statusCode,
    ).toBe(404);
  });

  it('are for admins only, and check what they are given', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '10');
    const byPlayer = await agent.post('/api/sandbox/card/disputes', { paymentIntentId: intentId });
    expect(byPlayer.statusCode).toBe(403);
    const disputeId = await dispute(intentId);
    const badStatus = await admin.post(`/api/sandbox/card/disputes/${disputeId}/close`, {
      status: 'maybe',
    });
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.statusInvalid });
    const unknown = await admin.post(
      `/api/sandbox/card/disputes/dp_sandbox_${'0'.repeat(24)}/close`,
      {
        status: 'won',
      },
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.disputeNotFound });
  });

  it('close a dispute once when two closes race', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '10');
    const disputeId = await dispute(intentId);
    const answers = await Promise.all([close(disputeId, 'won'), close(disputeId, 'won')]);
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    expect(await moneyOf(agent)).toMatchObject({ available: 10, debt: 0 });
  });
});

describe('money locks and payouts', () => {
  it('a dispute racing a payout request: the payout is returned or refused, never both kept', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { agent, user } = await signUp(t.app);
      const intentId = await depositByCard(agent, '20');
      await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '20' });
      const [requested] = await Promise.all([
        agent.post('/api/payouts', { ...PAYOUT_BODY, amount: 20 }),
        dispute(intentId),
      ]);
      expect([201, 403]).toContain(requested.statusCode);
      const waiting = await t.database.db
        .select()
        .from(payouts)
        .where(and(eq(payouts.userId, user.id), eq(payouts.status, 'pending')));
      expect(waiting).toEqual([]);
      expect(await moneyOf(agent)).toMatchObject({ available: 20, debt: 0 });
    }
  });
});

describe('the invariants', () => {
  it('catch money in the wallet of a player who owes, which no path may leave', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '10');
    await stakeInMatch(agent, 10);
    await dispute(intentId);
    // A credit that goes around `ledger.post`, as a one-statement call would.
    const credit = (direction: 'credit' | 'debit') =>
      sql`select ${POSTED_COLUMNS} from ${ledgerPostCall({
        idempotencyKey: `test-around:${direction}:${user.id}`,
        kind: 'adjustment',
        entries: [
          {
            account: HOUSE_ADJUSTMENTS,
            direction: direction === 'credit' ? 'debit' : 'credit',
            amountCents: 300n,
          },
          { account: userWallet(user.id), direction, amountCents: 300n },
        ],
      })}`;
    await testLedger.postWith(t.database.db, 'adjustment', credit('credit'));
    const report = await checkLedgerInvariants(t.database.db);
    expect(report.problems).toEqual([
      `receivable:user:${user.id} owes 1000 cents while the wallet holds 300`,
    ]);
    await testLedger.postWith(t.database.db, 'adjustment', credit('debit'));
    expect((await checkLedgerInvariants(t.database.db)).ok).toBe(true);
  });
});

describe('the CHARGEBACKS tab', () => {
  const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus });
  const card = () => selectPaymentProviders(t.env, t.database.db, () => new Date()).card;

  it('lists each dispute with its evidence, and the admin submits it once', async () => {
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '40');
    const disputeId = await dispute(intentId);
    const listed = async () => {
      const response = await admin.get('/api/admin/chargebacks');
      expect(response.statusCode).toBe(200);
      return response.json<AdminChargeback[]>().find((row) => row.id === disputeId);
    };
    expect(await listed()).toMatchObject({
      userId: user.id,
      username: user.username,
      paymentIntentId: intentId,
      amount: 40,
      reason: 'fraudulent',
      status: 'needs_response',
      outcome: 'open',
      evidence: null,
      evidenceSubmittedAt: null,
    });

    await runEvidencePass(ctx(), card(), pino({ level: 'silent' }));
    const staged = await listed();
    expect(staged?.evidence).toMatchObject({ customer_name: user.username });
    expect(staged?.evidenceStagedAt).not.toBeNull();

    const submitted = await admin.post(`/api/admin/chargebacks/${disputeId}/submit`);
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toEqual({ message: CHARGEBACK_MESSAGES.submitted });
    expect(await listed()).toMatchObject({ submittedAutomatically: false });
    expect((await listed())?.evidenceSubmittedAt).not.toBeNull();
    const [audited] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'chargeback.evidence_submit'),
          eq(auditLog.targetId, String(user.id)),
        ),
      );
    expect(audited?.details).toMatchObject({ disputeId });

    const again = await admin.post(`/api/admin/chargebacks/${disputeId}/submit`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.alreadySubmitted });
  });

  it('refuses a submit of a closed or unknown dispute, and to players', async () => {
    const { agent } = await signUp(t.app);
    const disputeId = await dispute(await depositByCard(agent, '10'));
    expect((await agent.post(`/api/admin/chargebacks/${disputeId}/submit`)).statusCode).toBe(403);
    await close(disputeId, 'won');
    const closed = await admin.post(`/api/admin/chargebacks/${disputeId}/submit`);
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ message: CHARGEBACK_MESSAGES.alreadyClosed });
    const unknown = await admin.post('/api/admin/chargebacks/dp_unknown/submit');
    expect(unknown.statusCode).toBe(404);
    const malformed = await admin.post('/api/admin/chargebacks/%20x/submit');
    expect(malformed.statusCode).toBe(400);
  });
});

describe('debts for the operator', () => {
  it('are on the overview and in the chargebacks export', async () => {
    const debtsNow = async () => {
      const response = await admin.get('/api/admin/overview');
      expect(response.statusCode).toBe(200);
      return response.json<{ debts: { total: number; players: number } }>().debts;
    };
    const before = await debtsNow();
    const { agent, user } = await signUp(t.app);
    const intentId = await depositByCard(agent, '20');
    await stakeInMatch(agent, 12);
    const disputeId = await dispute(intentId);
    expect(await debtsNow()).toEqual({
      total: before.total + 12,
      players: before.players + 1,
    });

    const csv = await admin.get('/api/admin/exports/chargebacks.csv');
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trim().split(/\r?\n/);
    expect(header).toBe(
      'dispute_id,created_at,user_id,username,payment_id,amount,reason,status,outcome,' +
        'evidence_submitted_at,closed_at,debt_now',
    );
    const line = lines.find((row) => row.startsWith(`${disputeId},`));
    expect(line).toContain(`,${user.id},${user.username},`);
    expect(line).toMatch(/,20\.00,fraudulent,needs_response,open,,,12\.00$/);
  });
});
