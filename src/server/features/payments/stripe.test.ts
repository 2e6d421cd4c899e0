import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '#shared/contracts/payments.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { ledgerAccounts } from '#server/db/schema/ledger.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { HOUSE_UNCLAIMED, userWallet } from '../ledger/accounts.ts';
import { createStripeCardProvider } from './providers/stripe-card-provider.ts';
import { PaymentProviderError } from './providers/types.ts';
import { balanceOf, depositTransfers, paymentRow } from './testing/assertions.ts';
import {
  signedStripeEvent,
  startFakeStripe,
  STRIPE_FAILURES,
  type FakeStripe,
} from './testing/fake-stripe.ts';
import { unusedLocalUrl } from './testing/http-stub.ts';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const SECRET_KEY = 'sk_test_fake_key';

let stripe: FakeStripe;
let t: TestApp;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake_key',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    },
  });
});
beforeEach(() => {
  stripe.failure = null;
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

async function failureOf(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

async function accountBalance(key: string): Promise<bigint> {
  const [row] = await t.database.db
    .select()
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, key));
  return row?.balanceCents ?? 0n;
}

async function createIntent(agent: Agent, amount: unknown = '25.50'): Promise<string> {
  const response = await agent.post('/api/create-payment-intent', { amount });
  expect(response.statusCode).toBe(200);
  return response.json<{ paymentIntentId: string }>().paymentIntentId;
}

function sendWebhook(payload: string, signature?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: {
      // As Stripe sends it.
      'content-type': 'application/json; charset=utf-8',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
  });
}

function succeededEvent(intentId: string, eventId = `evt_${randomBytes(8).toString('hex')}`) {
  return signedStripeEvent(WEBHOOK_SECRET, {
    id: eventId,
    type: 'payment_intent.succeeded',
    object: stripe.succeed(intentId),
  });
}

describe('Stripe adapter against a local Stripe API', () => {
  const adapter = () =>
    createStripeCardProvider({ secretKey: SECRET_KEY, apiBase: stripe.url, maxNetworkRetries: 0 });

  it('creates a USD PaymentIntent in cents, naming the player, with an idempotency key', async () => {
    const before = stripe.requests.length;
    const intent = await adapter().createIntent({
      userId: 42,
      amountCents: 2550n,
      idempotencyKey: 'deposit-intent:42:abc',
    });
    expect(intent).toMatchObject({
      amountCents: 2550n,
      amountReceivedCents: 0n,
      currency: 'usd',
      status: 'requires_payment_method',
      userId: 42,
      clientSecret: expect.stringMatching(new RegExp(`^${intent.id}_secret_`)),
    });
    const sent = stripe.requests.slice(before);
    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request?.headers['idempotency-key']).toBe('deposit-intent:42:abc');
    const form = new URLSearchParams(request?.body);
    expect(form.get('amount')).toBe('2550');
    expect(form.get('currency')).toBe('usd');
    expect(form.get('metadata[userId]')).toBe('42');
    expect(form.get('automatic_payment_methods[enabled]')).toBe('true');

    const again = await adapter().createIntent({
      userId: 42,
      amountCents: 2550n,
      idempotencyKey: 'deposit-intent:42:abc',
    });
    expect(again.id).toBe(intent.id);
  });

  it('retrieves an intent with its received amount and owner', async () => {
    const created = await adapter().createIntent({
      userId: 7,
      amountCents: 1000n,
      idempotencyKey: 'retrieve-test',
    });
    stripe.succeed(created.id);
    expect(await adapter().retrieveIntent(created.id)).toEqual({
      id: created.id,
      status: 'succeeded',
      amountCents: 1000n,
      amountReceivedCents: 1000n,
      currency: 'usd',
      userId: 7,
    });
  });

  it('cancels an unpaid intent, and leaves a paid or cancelled one as it is', async () => {
    const create = (key: string) =>
      adapter().createIntent({ userId: 9, amountCents: 1500n, idempotencyKey: key });
    const open = await create('deposit-intent:9:open');
    expect(await adapter().cancelIntent(open.id)).toMatchObject({ status: 'canceled' });
    expect(stripe.requests.at(-1)?.body).toContain('cancellation_reason=abandoned');
    expect(await adapter().cancelIntent(open.id)).toMatchObject({ status: 'canceled' });

    const paid = await create('deposit-intent:9:paid');
    stripe.succeed(paid.id);
    expect(await adapter().cancelIntent(paid.id)).toMatchObject({
      status: 'succeeded',
      amountReceivedCents: 1500n,
    });
    expect((await failureOf(adapter().cancelIntent('pi_missing'))).kind).toBe('not_found');
  });

  it('maps Stripe’s errors: unknown intent, card decline, server error, bad key, outage', async () => {
    expect((await failureOf(adapter().retrieveIntent('pi_missing'))).kind).toBe('not_found');
    stripe.failure = STRIPE_FAILURES.declined;
    const declined = await failureOf(adapter().retrieveIntent('pi_any'));
    expect([declined.kind, declined.message]).toEqual(['declined', 'Your card was declined.']);
    stripe.failure = STRIPE_FAILURES.serverError;
    expect((await failureOf(adapter().retrieveIntent('pi_any'))).kind).toBe('unavailable');
    stripe.failure = STRIPE_FAILURES.badKey;
    expect((await failureOf(adapter().retrieveIntent('pi_any'))).kind).toBe('unavailable');
    stripe.failure = 'hang-up';
    expect((await failureOf(adapter().retrieveIntent('pi_any'))).kind).toBe('unavailable');
    const down = createStripeCardProvider({
      secretKey: SECRET_KEY,
      apiBase: await unusedLocalUrl(),
      maxNetworkRetries: 0,
    });
    expect(
      (await failureOf(down.createIntent({ userId: 1, amountCents: 1000n, idempotencyKey: 'x' })))
        .kind,
    ).toBe('unavailable');
  });
});

describe('card deposits through Stripe', () => {
  it('tells the client to use Stripe Elements and hides the sandbox', async () => {
    const { agent } = await signUp(t.app);
    expect((await agent.get('/api/payments/config')).json()).toMatchObject({
      card: { enabled: true, mode: 'stripe', publishableKey: 'pk_test_fake_key' },
    });
    const sandbox = await agent.post('/api/sandbox/card/confirm', {
      clientSecret: 'pi_x_secret_y',
      cardNumber: '4242424242424242',
    });
    expect(sandbox.statusCode).toBe(404);
  });

  it('refuses to credit an intent that has not succeeded', async () => {
    const { agent } = await signUp(t.app);
    const paymentIntentId = await createIntent(agent);
    const response = await agent.post('/api/confirm-payment', { paymentIntentId, amount: 25.5 });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'PAYMENT_NOT_COMPLETED',
      message: PAYMENT_MESSAGES.paymentIncomplete,
    });
    expect(await balanceOf(agent)).toBe(0);
  });

  it('credits the amount Stripe received, whatever amount the client sends', async () => {
    const { agent, user } = await signUp(t.app);
    const paymentIntentId = await createIntent(agent, '25.50');
    expect(stripe.intents.get(paymentIntentId)?.metadata.userId).toBe(String(user.id));
    stripe.succeed(paymentIntentId);

    const response = await agent.post('/api/confirm-payment', { paymentIntentId, amount: 9999 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, amount: 25.5 });
    expect(await balanceOf(agent)).toBe(25.5);
    expect(await paymentRow(t.database, 'stripe', paymentIntentId)).toMatchObject({
      status: 'credited',
      providerStatus: 'succeeded',
      requestedAmountCents: 2550n,
      creditedAmountCents: 2550n,
    });
  });

  it('refuses another player’s intent and a non-USD intent', async () => {
    const owner = await signUp(t.app);
    const thief = await signUp(t.app);
    const paymentIntentId = await createIntent(owner.agent);
    stripe.succeed(paymentIntentId);
    const stolen = await thief.agent.post('/api/confirm-payment', { paymentIntentId });
    expect(stolen.statusCode).toBe(404);
    expect(await balanceOf(thief.agent)).toBe(0);

    const euroId = await createIntent(owner.agent);
    const euro = stripe.succeed(euroId);
    euro.currency = 'eur';
    const response = await owner.agent.post('/api/confirm-payment', { paymentIntentId: euroId });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: PAYMENT_MESSAGES.notUsd });
    expect(await balanceOf(owner.agent)).toBe(0);
  });

  it('answers 503 with the SPEC message when Stripe fails or is down', async () => {
    const { agent } = await signUp(t.app);
    const unavailable = {
      code: 'SERVICE_UNAVAILABLE',
      message: 'Payment service is currently unavailable. Please try again later.',
    };
    stripe.failure = STRIPE_FAILURES.serverError;
    const created = await agent.post('/api/create-payment-intent', { amount: 20 });
    expect(created.statusCode).toBe(503);
    expect(created.json()).toEqual(unavailable);
    const confirmed = await agent.post('/api/confirm-payment', { paymentIntentId: 'pi_abc' });
    expect(confirmed.json()).toEqual(unavailable);

    const down = await createTestApp({
      database: t.database,
      env: {
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_fake_key',
        STRIPE_API_BASE: await unusedLocalUrl(),
      },
    });
    try {
      const player = await signUp(down.app);
      const response = await player.agent.post('/api/create-payment-intent', { amount: 20 });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(unavailable);
      // Without a signing secret no webhook can be trusted: Stripe is told to retry later.
      const { payload, signature } = signedStripeEvent(WEBHOOK_SECRET, {
        id: 'evt_unverifiable',
        type: 'customer.created',
        object: { id: 'cus_1', object: 'customer' },
      });
      const webhook = await down.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
      expect(webhook.statusCode).toBe(503);
    } finally {
      await down.close();
    }
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('credits a payment that completes after its owner was deleted to house:unclaimed', async () => {
    const { agent, user } = await signUp(t.app);
    const paymentIntentId = await createIntent(agent, 40);
    const admin = await signInAdmin(t);
    expect(
      (await admin.agent.request({ method: 'DELETE', url: `/api/admin/users/${user.id}` }))
        .statusCode,
    ).toBe(200);
    const unclaimedBefore = await accountBalance(HOUSE_UNCLAIMED);

    const { payload, signature } = succeededEvent(paymentIntentId);
    expect((await sendWebhook(payload, signature)).statusCode).toBe(200);

    expect((await accountBalance(HOUSE_UNCLAIMED)) - unclaimedBefore).toBe(4000n);
    expect(await accountBalance(userWallet(user.id))).toBe(0n);
    expect(await depositTransfers(t.database, 'stripe', paymentIntentId)).toBe(1);
  });

  it('credits a signed payment_intent.succeeded event once, however often it is delivered', async () => {
    const { agent } = await signUp(t.app);
    const paymentIntentId = await createIntent(agent, 60);
    const { payload, signature } = succeededEvent(paymentIntentId, 'evt_once');
    for (let delivery = 0; delivery < 3; delivery += 1) {
      const response = await sendWebhook(payload, signature);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true });
    }
    expect(await balanceOf(agent)).toBe(60);
    expect(await depositTransfers(t.database, 'stripe', paymentIntentId)).toBe(1);
    // The confirm call that follows in the browser finds it already credited.
    const confirm = await agent.post('/api/confirm-payment', { paymentIntentId, amount: 60 });
    expect(confirm.json()).toEqual({ success: true, amount: 60 });
    expect(await balanceOf(agent)).toBe(60);
  });

  it('refuses a tampered body, a wrong secret, an old timestamp and no signature', async () => {
    const { agent } = await signUp(t.app);
    const paymentIntentId = await createIntent(agent, 30);
    const intent = stripe.succeed(paymentIntentId);
    const event = { id: 'evt_forged', type: 'payment_intent.succeeded', object: intent };
    const valid = signedStripeEvent(WEBHOOK_SECRET, event);
    const tampered = valid.payload.replace('"amount_received":3000', '"amount_received":300000');
    expect(tampered).not.toBe(valid.payload);
    const wrongSecret = signedStripeEvent('whsec_someone_else', event);
    const old = signedStripeEvent(WEBHOOK_SECRET, event, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    for (const [payload, signature] of [
      [tampered, valid.signature],
      [wrongSecret.payload, wrongSecret.signature],
      [old.payload, old.signature],
      [valid.payload, undefined],
      [valid.payload, 't=1,v1=deadbeef'],
    ] as const) {
      const response = await sendWebhook(payload, signature);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'INVALID_SIGNATURE', message: 'Invalid signature' });
    }
    expect(await balanceOf(agent)).toBe(0);
    // The refused deliveries did not use up the event id: the genuine one still counts.
    expect((await sendWebhook(valid.payload, valid.signature)).statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(30);
  });

  it('records a paid intent it has no row for, from Stripe’s record', async () => {
    const { agent, user } = await signUp(t.app);
    const intent = await createStripeCardProvider({
      secretKey: SECRET_KEY,
      apiBase: stripe.url,
    }).createIntent({ userId: user.id, amountCents: 1500n, idempotencyKey: `orphan-${user.id}` });
    const { payload, signature } = succeededEvent(intent.id);
    const response = await sendWebhook(payload, signature);
    expect(response.statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(15);
    expect(await paymentRow(t.database, 'stripe', intent.id)).toMatchObject({
      userId: user.id,
      status: 'credited',
      creditedAmountCents: 1500n,
    });
  });

  it('ends a payment whose attempt failed: cancelled at Stripe, failed here, the limit freed', async () => {
    const { agent } = await signUp(t.app);
    await agent.put('/api/responsible-gaming/limits', { daily: 50 });
    const intentId = await createIntent(agent, 40);
    // While open it holds its $40 of the day's $50.
    expect((await agent.post('/api/create-payment-intent', { amount: 20 })).statusCode).toBe(400);

    const failed = stripe.intents.get(intentId);
    const { payload, signature } = signedStripeEvent(WEBHOOK_SECRET, {
      id: `evt_${randomBytes(8).toString('hex')}`,
      type: 'payment_intent.payment_failed',
      object: { ...failed, last_payment_error: { code: 'card_declined' } },
    });
    stripe.failure = STRIPE_FAILURES.serverError;
    // Stripe unreachable: nothing recorded, and Stripe delivers the event again.
    expect((await sendWebhook(payload, signature)).statusCode).toBe(503);
    expect((await paymentRow(t.database, 'stripe', intentId)).status).toBe('pending');
    stripe.failure = null;
    expect((await sendWebhook(payload, signature)).statusCode).toBe(200);

    expect(stripe.intents.get(intentId)?.status).toBe('canceled');
    expect(await paymentRow(t.database, 'stripe', intentId)).toMatchObject({
      status: 'failed',
      providerStatus: 'canceled',
    });
    expect((await agent.post('/api/create-payment-intent', { amount: 20 })).statusCode).toBe(200);
  });

  it('acknowledges events it does not act on', async () => {
    const other = signedStripeEvent(WEBHOOK_SECRET, {
      id: 'evt_customer',
      type: 'customer.created',
      object: { id: 'cus_1', object: 'customer' },
    });
    expect((await sendWebhook(other.payload, other.signature)).statusCode).toBe(200);
  });
});

describe('exactly once', () => {
  it('credits once when confirm and the webhook race, five times each', async () => {
    const { agent } = await signUp(t.app);
    const paymentIntentId = await createIntent(agent, '99.99');
    const deliveries = Array.from({ length: 5 }, (_, index) =>
      succeededEvent(paymentIntentId, `evt_race_${paymentIntentId}_${index % 2}`),
    );
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        agent.post('/api/confirm-payment', { paymentIntentId, amount: 1000 }),
      ),
      ...deliveries.map(({ payload, signature }) => sendWebhook(payload, signature)),
    ]);
    for (const response of responses) expect(response.statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(99.99);
    expect(await depositTransfers(t.database, 'stripe', paymentIntentId)).toBe(1);
  });
});

describe.runIf(onPostgres)('exactly once on PostgreSQL, under load', () => {
  it('credits each of ten payments once while forty calls race on them', async () => {
    const { agent } = await signUp(t.app);
    const ids: string[] = [];
    for (let index = 0; index < 10; index += 1) ids.push(await createIntent(agent, 10 + index));
    await Promise.all(
      ids.flatMap((paymentIntentId) => {
        const event = succeededEvent(paymentIntentId, `evt_load_${paymentIntentId}`);
        return [
          agent.post('/api/confirm-payment', { paymentIntentId }),
          agent.post('/api/confirm-payment', { paymentIntentId }),
          sendWebhook(event.payload, event.signature),
          sendWebhook(event.payload, event.signature),
        ];
      }),
    );
    // 10 + 11 + … + 19 dollars.
    expect(await balanceOf(agent)).toBe(145);
    for (const id of ids) expect(await depositTransfers(t.database, 'stripe', id)).toBe(1);
  });
});
