import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { disputedPaymentReason } from '#shared/money-lock.ts';
import { cardDisputes } from '#server/db/schema/card-disputes.ts';
import { cardFraudWarnings, cardRefunds } from '#server/db/schema/card-refunds.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  registration,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { createAppContext } from '#server/context.ts';
import { selectPaymentProviders } from '../../features/payments/index.ts';
import {
  fakeDispute,
  fakeEarlyFraudWarning,
  signedStripeEvent,
  startFakeStripe,
  STRIPE_FAILURES,
  type FakeDispute,
  type FakeStripe,
} from '../../features/payments/testing/fake-stripe.ts';
import { CHALLENGE_BODY } from '../../security/testing/world.ts';
import { refundKeyOf, runCardRefundPass } from './card-refunds.ts';
import { runEvidencePass } from './evidence.ts';
import pino from 'pino';

const silentLog = pino({ level: 'silent' });

const WEBHOOK_SECRET = 'whsec_test_disputes_0123456789';

let stripe: FakeStripe;
let t: TestApp;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_fake_key',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake_key',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    },
  });
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const eventId = () => `evt_${randomBytes(8).toString('hex')}`;

function deliver(type: string, object: unknown, id = eventId(), created?: number) {
  const { payload, signature } = signedStripeEvent(
    WEBHOOK_SECRET,
    { id, type, object },
    created === undefined ? {} : { created },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
  });
}

async function delivered(type: string, object: unknown, id?: string): Promise<void> {
  const response = await deliver(type, object, id);
  expect(response.statusCode, response.body).toBe(200);
}

/** A card deposit paid at the fake Stripe and credited by its webhook. */
async function paidDeposit(agent: Agent, amount: string) {
  const created = await agent.post('/api/create-payment-intent', { amount });
  expect(created.statusCode).toBe(200);
  const intent = stripe.succeed(created.json<{ paymentIntentId: string }>().paymentIntentId);
  await delivered('payment_intent.succeeded', intent);
  return intent;
}

async function moneyOf(agent: Agent) {
  const body = (await agent.get('/api/user')).json<{
    available: number;
    debt: number;
    moneyLock: { reason: string } | null;
  }>();
  return { available: body.available, debt: body.debt, locked: body.moneyLock !== null };
}

async function disputeRow(dispute: FakeDispute) {
  const [row] = await t.database.db
    .select()
    .from(cardDisputes)
    .where(eq(cardDisputes.providerDisputeId, dispute.id));
  return row;
}

/** A player who paid $30 by card and staked $20 of it: a dispute leaves $20 of debt. */
async function playerWhoStaked() {
  const player = await signUp(t.app);
  const intent = await paidDeposit(player.agent, '30');
  // In a match an opponent accepted: the stake stays in escrow through a dispute.
  const staked = await player.agent.post('/api/challenges', { ...CHALLENGE_BODY, amount: 20 });
  expect(staked.statusCode).toBe(201);
  const opponent = await signUp(t.app);
  await fund(t.database, opponent.user.id, 2000n);
  const accepted = await opponent.agent.post(
    `/api/challenges/${staked.json<{ id: number }>().id}/accept`,
  );
  expect(accepted.statusCode).toBe(200);
  return { ...player, intent };
}

describe("Stripe's dispute events", () => {
  it('charge back once however often an event is delivered, and lock the money', async () => {
    const { agent, intent } = await playerWhoStaked();
    const dispute = fakeDispute(intent);
    const id = eventId();
    await delivered('charge.dispute.created', dispute, id);
    await delivered('charge.dispute.created', dispute, id);
    await delivered('charge.dispute.funds_withdrawn', dispute);
    expect(await moneyOf(agent)).toEqual({ available: 0, debt: 20, locked: true });
    expect(await disputeRow(dispute)).toMatchObject({
      outcome: 'open',
      amountCents: 3000n,
      evidenceDueBy: new Date((dispute.evidence_details.due_by ?? 0) * 1000),
    });
    const user = (await agent.get('/api/user')).json<{ moneyLock: { reason: string } }>();
    expect(user.moneyLock.reason).toBe(disputedPaymentReason('$30.00'));
  });

  it('charge back once when five events of one dispute arrive at once', async () => {
    const { agent, intent } = await playerWhoStaked();
    const dispute = fakeDispute(intent);
    const answers = await Promise.all([
      deliver('charge.dispute.created', dispute),
      deliver('charge.dispute.funds_withdrawn', dispute),
      deliver('charge.dispute.updated', { ...dispute, status: 'under_review' }),
      deliver('charge.dispute.created', dispute),
      deliver('charge.dispute.updated', dispute),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(await moneyOf(agent)).toEqual({ available: 0, debt: 20, locked: true });
  });

  it('reverse the chargeback when won, the debt first, and a late event changes nothing', async () => {
    const { agent, intent } = await playerWhoStaked();
    const dispute = fakeDispute(intent);
    await delivered('charge.dispute.created', dispute);
    await delivered('charge.dispute.updated', { ...dispute, status: 'under_review' });
    await delivered('charge.dispute.funds_reinstated', { ...dispute, status: 'won' });
    await delivered('charge.dispute.closed', { ...dispute, status: 'won' });
    expect(await moneyOf(agent)).toEqual({ available: 10, debt: 0, locked: true });
    await delivered('charge.dispute.updated', { ...dispute, status: 'needs_response' });
    await delivered('charge.dispute.created', dispute);
    expect(await moneyOf(agent)).toEqual({ available: 10, debt: 0, locked: true });
    expect(await disputeRow(dispute)).toMatchObject({ outcome: 'won', providerStatus: 'won' });
  });

  it('take the money back from a close that arrives before the dispute was opened', async () => {
    const { agent, intent } = await playerWhoStaked();
    const dispute = fakeDispute(intent);
    await delivered('charge.dispute.closed', { ...dispute, status: 'lost' });
    await delivered('charge.dispute.created', dispute);
    expect(await moneyOf(agent)).toEqual({ available: 0, debt: 20, locked: true });
    expect(await disputeRow(dispute)).toMatchObject({ outcome: 'lost' });

    const won = fakeDispute(intent);
    await delivered('charge.dispute.closed', { ...won, status: 'won' });
    // One payment, one dispute: the second changes nothing.
    expect(await disputeRow(won)).toBeUndefined();
    expect(await moneyOf(agent)).toEqual({ available: 0, debt: 20, locked: true });
  });

  it('ignore a dispute of a payment that is not ours, and unsigned deliveries', async () => {
    const stranger = fakeDispute({ id: 'pi_not_ours', amount_received: 5000, currency: 'usd' });
    await delivered('charge.dispute.created', stranger);
    expect(await disputeRow(stranger)).toBeUndefined();

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload: JSON.stringify({ type: 'charge.dispute.created', data: { object: stranger } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
  });

  it('are not in the sandbox: with Stripe configured its dispute routes do not exist', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/card/disputes',
      payload: { paymentIntentId: 'pi_x' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("Stripe's inquiries and late events", () => {
  it('take nothing for an inquiry, and charge back once it becomes a chargeback', async () => {
    const { agent, intent } = await playerWhoStaked();
    const inquiry = fakeDispute(intent, { status: 'warning_needs_response' });
    await delivered('charge.dispute.created', inquiry);
    expect(await moneyOf(agent)).toEqual({ available: 10, debt: 0, locked: false });
    expect(await disputeRow(inquiry)).toBeUndefined();
    await delivered('charge.dispute.updated', { ...inquiry, status: 'needs_response' });
    expect(await moneyOf(agent)).toEqual({ available: 0, debt: 20, locked: true });
  });

  it('keep the newer status and deadline when an older event arrives after it', async () => {
    const { intent } = await playerWhoStaked();
    const dispute = fakeDispute(intent);
    const now = Math.floor(Date.now() / 1000);
    const later = {
      ...dispute,
      status: 'under_review',
      evidence_details: { ...dispute.evidence_details, due_by: now + 9 * 86_400 },
    };
    expect((await deliver('charge.dispute.updated', later, eventId(), now)).statusCode).toBe(200);
    expect((await deliver('charge.dispute.created', dispute, eventId(), now - 60)).statusCode).toBe(
      200,
    );
    expect(await disputeRow(dispute)).toMatchObject({
      providerStatus: 'under_review',
      evidenceDueBy: new Date((now + 9 * 86_400) * 1000),
      outcome: 'open',
    });
  });
});

describe('the evidence of a dispute', () => {
  const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus });
  const card = () => selectPaymentProviders(t.env, t.database.db, () => new Date()).card;
  const pass = () => runEvidencePass(ctx(), card(), silentLog);
  const submits = (disputeId: string) =>
    stripe.requests.filter(
      (request) =>
        request.path === `/v1/disputes/${disputeId}` &&
        new URLSearchParams(request.body).get('submit') === 'true',
    ).length;

  /** A dispute Stripe knows, due in `hours`, of a player who signed in from 203.0.113.7. */
  async function openDispute(hours: number) {
    const agent = new Agent(t.app);
    const registered = await agent.request({
      method: 'POST',
      url: '/api/register',
      payload: registration(),
      remoteAddress: '203.0.113.7',
    });
    expect(registered.statusCode).toBe(201);
    const user = registered.json<{ id: number; username: string }>();
    const intent = await paidDeposit(agent, '30');
    const dispute = fakeDispute(intent, {
      evidence_details: {
        due_by: Math.floor(Date.now() / 1000) + hours * 3600,
        has_evidence: false,
        past_due: false,
        submission_count: 0,
      },
    });
    stripe.disputes.set(dispute.id, { ...dispute, evidence: {} });
    await delivered('charge.dispute.created', dispute);
    return { agent, user, dispute };
  }

  it('is staged at Stripe, unsubmitted, with the sign-ins, the address and the play', async () => {
    const { user, dispute } = await openDispute(24 * 7);
    await pass();
    const staged = stripe.disputes.get(dispute.id);
    expect(staged?.evidence_details.submission_count).toBe(0);
    expect(staged?.evidence).toMatchObject({
      customer_name: user.username,
      customer_purchase_ip: '203.0.113.7',
    });
    expect(staged?.evidence.access_activity_log).toContain('203.0.113.7');
    expect(staged?.evidence.uncategorized_text).toContain('21 or older');
    expect(staged?.evidence.uncategorized_text).toContain('staked $0.00 in 0 match(es)');
    const row = await disputeRow(dispute);
    expect(row?.evidenceStagedAt).toBeInstanceOf(Date);
    expect(row?.evidenceSubmittedAt).toBeNull();
    expect(submits(dispute.id)).toBe(0);
  });

  it('is submitted by itself 48 hours before the deadline, once across passes at once', async () => {
    const { dispute } = await openDispute(47);
    await Promise.all([pass(), pass(), pass()]);
    await pass();
    expect(submits(dispute.id)).toBe(1);
    expect(stripe.disputes.get(dispute.id)?.evidence_details.submission_count).toBe(1);
    expect(await disputeRow(dispute)).toMatchObject({ evidenceSubmittedBy: null });
    expect((await disputeRow(dispute))?.evidenceSubmittedAt).toBeInstanceOf(Date);
  });

  it('waits out a Stripe failure without retrying in a loop', async () => {
    const { dispute } = await openDispute(24);
    stripe.failure = STRIPE_FAILURES.serverError;
    try {
      await pass();
      await pass();
    } finally {
      stripe.failure = null;
    }
    expect((await disputeRow(dispute))?.evidenceSubmittedAt).toBeNull();
    expect((await disputeRow(dispute))?.claimedUntil).toBeInstanceOf(Date);
  });
});

describe('card refunds at Stripe', () => {
  const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus });
  const card = () => selectPaymentProviders(t.env, t.database.db, () => new Date()).card;
  const pass = () => runCardRefundPass(ctx(), card(), silentLog);
  const refundsOf = (intentId: string) =>
    [...stripe.refunds.values()].filter((refund) => refund.payment_intent === intentId);

  async function refundToCard(agent: Agent, amount: string) {
    const response = await agent.post('/api/payouts/card-refund', { amount });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ refunds: Array<{ id: number }> }>().refunds;
  }

  it('are made once with the key, through an outage and an answer lost', async () => {
    const { agent } = await signUp(t.app);
    const intent = await paidDeposit(agent, '30');
    const [refund] = await refundToCard(agent, '30');
    if (!refund) throw new Error('no refund');

    stripe.failure = STRIPE_FAILURES.serverError;
    expect(await pass()).toBe(1);
    stripe.failure = null;
    // The claim waits out its lease instead of retrying in a loop.
    expect(await pass()).toBe(0);
    // The answer of an attempt was lost: Stripe made it, and our row still says pending.
    await card().refundPayment({
      paymentIntentId: intent.id,
      amountCents: 3000n,
      refundKey: refundKeyOf(refund.id),
      reason: 'requested_by_customer',
    });
    // A day later Stripe no longer knows the key: only looking the refund up finds it.
    stripe.forgetIdempotencyKeys();
    await t.database.db
      .update(cardRefunds)
      .set({ claimedUntil: null })
      .where(eq(cardRefunds.id, refund.id));
    expect(await pass()).toBe(1);

    expect(refundsOf(intent.id)).toMatchObject([
      {
        amount: 3000,
        reason: 'requested_by_customer',
        metadata: { cardRefund: refundKeyOf(refund.id) },
      },
    ]);
    const [row] = await t.database.db
      .select()
      .from(cardRefunds)
      .where(eq(cardRefunds.id, refund.id));
    expect(row).toMatchObject({
      status: 'succeeded',
      providerRefundId: refundsOf(intent.id)[0]?.id,
    });
  });
});

describe('a card refund pending at the card network', () => {
  const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus });
  const card = () => selectPaymentProviders(t.env, t.database.db, () => new Date()).card;

  it('is asked about again until Stripe says how it ended', async () => {
    const { agent } = await signUp(t.app);
    const intent = await paidDeposit(agent, '20');
    const asked = await agent.post('/api/payouts/card-refund', { amount: '20' });
    expect(asked.statusCode).toBe(201);
    const [refund] = asked.json<{ refunds: Array<{ id: number }> }>().refunds;
    const rowOf = async () =>
      (
        await t.database.db
          .select()
          .from(cardRefunds)
          .where(eq(cardRefunds.id, refund?.id ?? 0))
      )[0];
    stripe.refundStatus = 'pending';
    try {
      await runCardRefundPass(ctx(), card(), silentLog);
    } finally {
      stripe.refundStatus = 'succeeded';
    }
    expect(await rowOf()).toMatchObject({ status: 'pending' });
    const made = [...stripe.refunds.values()].find((one) => one.payment_intent === intent.id);
    if (!made) throw new Error('no refund at Stripe');
    made.status = 'succeeded';
    await t.database.db
      .update(cardRefunds)
      .set({ claimedUntil: null })
      .where(eq(cardRefunds.id, refund?.id ?? 0));
    await runCardRefundPass(ctx(), card(), silentLog);
    expect(await rowOf()).toMatchObject({ status: 'succeeded', providerRefundId: made.id });
    expect(
      [...stripe.refunds.values()].filter((one) => one.payment_intent === intent.id),
    ).toHaveLength(1);
  });
});

describe("Stripe's early fraud warnings", () => {
  const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus });
  const card = () => selectPaymentProviders(t.env, t.database.db, () => new Date()).card;

  it('refund the unplayed payment once however often delivered', async () => {
    const { agent } = await signUp(t.app);
    const intent = await paidDeposit(agent, '25');
    const warning = fakeEarlyFraudWarning(intent);
    const id = eventId();
    await delivered('radar.early_fraud_warning.created', warning, id);
    await delivered('radar.early_fraud_warning.created', warning, id);
    await delivered('radar.early_fraud_warning.created', warning);
    await runCardRefundPass(ctx(), card(), silentLog);
    expect(await moneyOf(agent)).toEqual({ available: 0, debt: 0, locked: false });
    expect(
      [...stripe.refunds.values()].filter((refund) => refund.payment_intent === intent.id),
    ).toMatchObject([{ amount: 2500, reason: 'fraudulent' }]);
    const rows = await t.database.db
      .select()
      .from(cardFraudWarnings)
      .where(eq(cardFraudWarnings.providerWarningId, String(warning.id)));
    expect(rows).toMatchObject([{ action: 'refunded', fraudType: 'made_with_stolen_card' }]);
  });

  it('lock the money of a player who played the payment', async () => {
    const { agent, intent } = await playerWhoStaked();
    await delivered('radar.early_fraud_warning.created', fakeEarlyFraudWarning(intent));
    expect(await moneyOf(agent)).toEqual({ available: 10, debt: 0, locked: true });
    expect(
      [...stripe.refunds.values()].filter((refund) => refund.payment_intent === intent.id),
    ).toEqual([]);
  });
});
