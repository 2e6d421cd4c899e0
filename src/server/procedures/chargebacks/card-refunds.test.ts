import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARD_REFUND_MESSAGES, type CardRefundView } from '#shared/contracts/card-refunds.ts';
import { fraudWarningReason, moneyLockMessage } from '#shared/money-lock.ts';
import { createAppContext } from '#server/context.ts';
import { queryRows } from '#server/db/client.ts';
import { cardFraudWarnings, cardRefunds } from '#server/db/schema/card-refunds.ts';
import { notifications } from '#server/db/schema/notifications.ts';
import { sandboxRefunds } from '#server/db/schema/payments.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../../features/admin/testing/admin-agent.ts';
import { selectPaymentProviders } from '../../features/payments/index.ts';
import { CHALLENGE_BODY } from '../../security/testing/world.ts';
import { refundKeyOf, runCardRefundPass } from './card-refunds.ts';
import { depositByCard, disputeInSandbox } from './testing/card-money.ts';

const silentLog = pino({ level: 'silent' });
/** The app's clock runs `aheadMs` ahead of the real one: a worker's lapsed claim is minutes away. */
let aheadMs = 0;
const clock = () => new Date(Date.now() + aheadMs);
let t: TestApp;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterEach(async () => {
  aheadMs = 0;
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus, clock });
const card = () => selectPaymentProviders(t.env, t.database.db, clock).card;
const runPass = () => runCardRefundPass(ctx(), card(), silentLog);

interface RefundAnswer {
  refunds: CardRefundView[];
  balance: number;
  message: string;
}

function refundToCard(agent: Agent, amount: unknown, key?: string) {
  return agent.request({
    method: 'POST',
    url: '/api/payouts/card-refund',
    payload: { amount },
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
}

async function refunded(agent: Agent, amount: unknown, key?: string): Promise<RefundAnswer> {
  const response = await refundToCard(agent, amount, key);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<RefundAnswer>();
}

async function money(agent: Agent) {
  const user = (await agent.get('/api/user')).json<{
    available: number;
    debt: number;
    moneyLock: { reason: string } | null;
  }>();
  const limits = (await agent.get('/api/payouts/limits')).json<{
    withdrawable: number;
    refundableToCard: number;
  }>();
  return {
    available: user.available,
    debt: user.debt,
    locked: user.moneyLock !== null,
    refundableToCard: limits.refundableToCard,
  };
}

async function listed(agent: Agent): Promise<CardRefundView[]> {
  const response = await agent.get('/api/payouts/card-refunds');
  expect(response.statusCode).toBe(200);
  return response.json<CardRefundView[]>();
}

async function transactionKinds(agent: Agent): Promise<string[]> {
  const response = await agent.get('/api/transactions');
  return response.json<{ items: Array<{ kind: string }> }>().items.map((row) => row.kind);
}

async function sandboxRefundsOf(paymentIntentId: string) {
  return t.database.db
    .select()
    .from(sandboxRefunds)
    .where(eq(sandboxRefunds.paymentIntentId, paymentIntentId));
}

describe('REFUND TO CARD', () => {
  it('holds the amount at once and refunds it at the provider once', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '50');
    const answer = await refunded(agent, '30');
    expect(answer).toMatchObject({
      balance: 20,
      message: CARD_REFUND_MESSAGES.requested('$30.00'),
      refunds: [{ amount: 30, status: 'pending', completedAt: null }],
    });
    expect(await money(agent)).toMatchObject({ available: 20, refundableToCard: 20 });

    await runPass();
    await runPass();
    const [refund] = await listed(agent);
    expect(refund).toMatchObject({ id: answer.refunds[0]?.id, status: 'succeeded' });
    expect(await sandboxRefundsOf(intentId)).toMatchObject([{ amountCents: 3000n }]);
    // The wallet's list shows the refund leaving it; its way on to the card is the hold's.
    expect(await transactionKinds(agent)).toEqual(['card_refund_hold', 'deposit']);
    expect(await money(agent)).toMatchObject({ available: 20, refundableToCard: 20 });
  });

  it('takes the newest card payments first, one refund each', async () => {
    const { agent } = await signUp(t.app);
    const older = await depositByCard(agent, '20');
    const newer = await depositByCard(agent, '30');
    const answer = await refunded(agent, '40');
    expect(answer.refunds.map((refund) => refund.amount)).toEqual([30, 10]);
    await runPass();
    expect(await sandboxRefundsOf(newer)).toMatchObject([{ amountCents: 3000n }]);
    expect(await sandboxRefundsOf(older)).toMatchObject([{ amountCents: 1000n }]);
    expect(await money(agent)).toMatchObject({ available: 10, refundableToCard: 10 });
  });

  it('refuses bad amounts, more than the card money, and money that came otherwise', async () => {
    const { agent } = await signUp(t.app);
    await depositByCard(agent, '25');
    for (const [amount, message] of [
      ['', CARD_REFUND_MESSAGES.amountRequired],
      [null, CARD_REFUND_MESSAGES.amountRequired],
      ['ten', CARD_REFUND_MESSAGES.amountInvalid],
      ['1.234', CARD_REFUND_MESSAGES.amountInvalid],
      [0, CARD_REFUND_MESSAGES.amountPositive],
      ['-5', CARD_REFUND_MESSAGES.amountPositive],
      ['25.01', CARD_REFUND_MESSAGES.tooMuch('$25.00')],
    ] as const) {
      const response = await refundToCard(agent, amount);
      expect(response.statusCode, String(amount)).toBe(400);
      expect(response.json()).toMatchObject({ message, fields: { amount: message } });
    }
    const other = await signUp(t.app);
    const credited = await admin.post(`/api/admin/users/${other.user.id}/balance`, {
      amount: '40',
    });
    expect(credited.statusCode).toBe(200);
    const none = await refundToCard(other.agent, '5');
    expect(none.json()).toMatchObject({ message: CARD_REFUND_MESSAGES.nothingRefundable });
    expect(await money(agent)).toMatchObject({ available: 25, refundableToCard: 25 });
    expect(await t.app.inject({ method: 'POST', url: '/api/payouts/card-refund' })).toMatchObject({
      statusCode: 401,
    });
  });

  it('answers a retried request with its first refunds, and two at once take the money once', async () => {
    const { agent } = await signUp(t.app);
    await depositByCard(agent, '50');
    const first = await refunded(agent, '20', 'refund-key-0001');
    const again = await refunded(agent, '20', 'refund-key-0001');
    expect(again.refunds).toEqual(first.refunds);
    expect(await money(agent)).toMatchObject({ available: 30, refundableToCard: 30 });

    const answers = await Promise.all([refundToCard(agent, '30'), refundToCard(agent, '30')]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([201, 400]);
    const refused = answers.find((response) => response.statusCode === 400);
    expect(refused?.json()).toMatchObject({ message: CARD_REFUND_MESSAGES.nothingRefundable });
    await runPass();
    expect(await money(agent)).toMatchObject({ available: 0, refundableToCard: 0 });
    expect((await listed(agent)).map((refund) => refund.status)).toEqual([
      'succeeded',
      'succeeded',
    ]);
  });

  it('and a stake at once never spend one dollar twice', async () => {
    const { agent } = await signUp(t.app);
    await depositByCard(agent, '50');
    const [stake, refund] = await Promise.all([
      agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 30 }),
      refundToCard(agent, '50'),
    ]);
    const statuses = [stake.statusCode, refund.statusCode];
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    const { available } = await money(agent);
    expect(available).toBe(stake.statusCode === 201 ? 20 : 0);
    // A refund that won the race is made, so no later test's pass finds it waiting.
    await runPass();
  });

  it('is made once when the worker died after the provider made it', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '40');
    const [refund] = (await refunded(agent, '40')).refunds;
    if (!refund) throw new Error('no refund');
    // The worker claimed it, the provider made it, and the worker died before writing that down.
    await t.database.db
      .update(cardRefunds)
      .set({ claimedUntil: new Date(Date.now() + 120_000) })
      .where(eq(cardRefunds.id, refund.id));
    const made = await card().refundPayment({
      paymentIntentId: intentId,
      amountCents: 4000n,
      refundKey: refundKeyOf(refund.id),
      reason: 'requested_by_customer',
    });
    expect(made.status).toBe('succeeded');
    // While the dead worker's claim lasts, nobody takes the refund up.
    await runPass();
    expect(await listed(agent)).toMatchObject([{ status: 'pending' }]);

    aheadMs = 3 * 60_000;
    await runPass();
    expect(await sandboxRefundsOf(intentId)).toHaveLength(1);
    expect(await listed(agent)).toMatchObject([{ status: 'succeeded' }]);
  });

  it('is refused to a player whose money is locked', async () => {
    const { agent } = await signUp(t.app);
    await depositByCard(agent, '30');
    const other = await depositByCard(agent, '20');
    await disputeInSandbox(admin, other);
    const refused = await refundToCard(agent, '10');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'MONEY_LOCKED' });
  });

  it('under way when the payment is disputed: the provider refuses and the money pays the debt', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '50');
    await refunded(agent, '50');
    await disputeInSandbox(admin, intentId);
    expect(await money(agent)).toMatchObject({ available: 0, debt: 50, locked: true });
    await runPass();
    expect(await listed(agent)).toMatchObject([
      { status: 'failed', failureReason: expect.stringContaining('charged back') },
    ]);
    expect(await money(agent)).toMatchObject({ available: 0, debt: 0, locked: true });
    expect(await sandboxRefundsOf(intentId)).toHaveLength(0);
  });

  it('made before a dispute leaves the dispute only the rest to take', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '50');
    await refunded(agent, '20');
    await runPass();
    await disputeInSandbox(admin, intentId);
    expect(await money(agent)).toMatchObject({ available: 0, debt: 0, locked: true });
    const [chargeback] = await queryRows<{ amount: string }>(
      t.database.db,
      sql`select d.amount_cents::text as amount from card_disputes d join payments p
        on p.id = d.payment_id where p.provider_payment_id = ${intentId}`,
    );
    expect(chargeback?.amount).toBe('3000');
  });
});

describe('an early fraud warning', () => {
  async function warn(paymentIntentId: string) {
    const response = await admin.post('/api/sandbox/card/early-fraud-warnings', {
      paymentIntentId,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; action: string }>();
  }

  async function adminTold(warningId: string): Promise<string[]> {
    const [warning] = await t.database.db
      .select()
      .from(cardFraudWarnings)
      .where(eq(cardFraudWarnings.providerWarningId, warningId));
    if (!warning) return [];
    const rows = await t.database.db
      .select({ body: notifications.body })
      .from(notifications)
      .where(eq(notifications.dedupeKey, `card-fraud-warning:${warning.id}:${adminId}`));
    return rows.map((row) => row.body);
  }

  it('refunds a payment still unplayed in the wallet, and tells the admins', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '35');
    const warning = await warn(intentId);
    expect(warning.action).toBe('refunded');
    expect(await money(agent)).toMatchObject({ available: 0, locked: false });
    await runPass();
    expect(await sandboxRefundsOf(intentId)).toMatchObject([{ amountCents: 3500n }]);
    expect(await adminTold(warning.id)).toEqual([
      expect.stringContaining('It was unplayed, so it is being refunded to the card.'),
    ]);
  });

  it('locks the money of a player who played it, withdrawing their open challenge', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '35');
    const open = await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 10 });
    expect(open.statusCode).toBe(201);
    const warning = await warn(intentId);
    expect(warning.action).toBe('locked');
    const user = (await agent.get('/api/user')).json<{ moneyLock: { reason: string } }>();
    expect(user.moneyLock.reason).toBe(fraudWarningReason('$35.00'));
    expect(await money(agent)).toMatchObject({ available: 35, locked: true });
    expect(await adminTold(warning.id)).toEqual([expect.stringContaining('money is locked')]);
    const refused = await agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 10 });
    expect(refused.json()).toMatchObject({
      code: 'MONEY_LOCKED',
      message: moneyLockMessage({ reason: fraudWarningReason('$35.00'), since: '' }),
    });
  });

  it('changes nothing on a payment already disputed', async () => {
    const { agent } = await signUp(t.app);
    const intentId = await depositByCard(agent, '35');
    await disputeInSandbox(admin, intentId);
    expect((await warn(intentId)).action).toBe('ignored');
    expect(await money(agent)).toMatchObject({ available: 0, debt: 0, locked: true });
    expect(await listed(agent)).toEqual([]);
  });

  it('is refused for a payment that is not a credited card payment', async () => {
    const response = await admin.post('/api/sandbox/card/early-fraud-warnings', {
      paymentIntentId: 'pi_sandbox_none',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: CARD_REFUND_MESSAGES.paymentNotFound });
    const { agent } = await signUp(t.app);
    const player = await agent.post('/api/sandbox/card/early-fraud-warnings', {
      paymentIntentId: 'pi_sandbox_none',
    });
    expect(player.statusCode).toBe(403);
  });
});
