import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  GENEROUS_RATE_LIMITS,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { listPaymentsForAdmin } from './repository.ts';
import { balanceOf, depositTransfers, paymentRow } from './testing/assertions.ts';

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

async function createIntent(agent: Agent, amount: unknown = '25.50') {
  const response = await agent.post('/api/create-payment-intent', { amount });
  expect(response.statusCode).toBe(200);
  return response.json<{ clientSecret: string; paymentIntentId: string }>();
}

async function createCrypto(agent: Agent, amount: unknown = 25) {
  const response = await agent.post('/api/create-crypto-payment', { amount });
  expect(response.statusCode).toBe(200);
  return response.json<{ paymentId: string; paymentAddress: string; paymentUrl: string }>();
}

describe('payment configuration', () => {
  it('reports both sandboxes, enabled, with no publishable key', async () => {
    const { agent } = await signUp(t.app);
    const response = await agent.get('/api/payments/config');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      card: { enabled: true, mode: 'sandbox', publishableKey: null },
      crypto: { enabled: true, mode: 'sandbox', payCurrency: 'btc' },
    });
    expect((await agent.get('/api/crypto-status')).json()).toEqual({
      isConfigured: true,
      publicKeyPattern: null,
    });
  });

  it('refuses anonymous callers on every payment route', async () => {
    for (const [method, url] of [
      ['GET', '/api/payments/config'],
      ['GET', '/api/crypto-status'],
      ['POST', '/api/create-payment-intent'],
      ['POST', '/api/confirm-payment'],
      ['POST', '/api/create-crypto-payment'],
      ['GET', '/api/check-crypto-payment/123'],
      ['POST', '/api/crypto-deposit-notification'],
      ['POST', '/api/sandbox/card/confirm'],
      ['GET', '/api/sandbox/crypto/123'],
      ['POST', '/api/sandbox/crypto/123/simulate'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('has no webhook routes while the sandboxes are the providers', async () => {
    for (const url of ['/api/webhooks/stripe', '/api/webhooks/nowpayments']) {
      const response = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('deposit amounts', () => {
  it.each([
    [{}, PAYMENT_MESSAGES.amountRequired],
    [{ amount: '' }, PAYMENT_MESSAGES.amountRequired],
    [{ amount: 'ten' }, PAYMENT_MESSAGES.amountInvalid],
    [{ amount: '1e3' }, PAYMENT_MESSAGES.amountInvalid],
    [{ amount: 10.001 }, PAYMENT_MESSAGES.amountInvalid],
    [{ amount: true }, PAYMENT_MESSAGES.amountInvalid],
    [{ amount: 9.99 }, PAYMENT_MESSAGES.amountTooSmall],
    [{ amount: '-50' }, PAYMENT_MESSAGES.amountTooSmall],
    [{ amount: '10000.01' }, PAYMENT_MESSAGES.amountTooLarge],
  ])('refuses %o with "%s" on card and crypto', async (payload, message) => {
    const { agent } = await signUp(t.app);
    for (const url of ['/api/create-payment-intent', '/api/create-crypto-payment']) {
      const response = await agent.post(url, payload);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message,
        fields: { amount: message },
      });
    }
  });

  it('accepts the bounds, $10 and $10,000, as numbers or text', async () => {
    const { agent } = await signUp(t.app);
    for (const amount of [10, '10', '10000.00', 10_000]) {
      expect((await agent.post('/api/create-payment-intent', { amount })).statusCode).toBe(200);
    }
  });
});

describe('sandbox card deposits', () => {
  it('follows the sandbox contract and credits the intent’s own amount once', async () => {
    const { agent, user } = await signUp(t.app);
    const { clientSecret, paymentIntentId } = await createIntent(agent, '25.50');
    expect(clientSecret).toMatch(/^pi_sandbox[0-9a-f]{24}_secret_[0-9a-f]{32}$/);
    expect(clientSecret.startsWith(`${paymentIntentId}_secret_`)).toBe(true);
    expect(await paymentRow(t.database, 'sandbox-card', paymentIntentId)).toMatchObject({
      userId: user.id,
      method: 'card',
      requestedAmountCents: 2550n,
      currency: 'usd',
      status: 'pending',
      providerStatus: 'requires_payment_method',
    });

    const paid = await agent.post('/api/sandbox/card/confirm', {
      clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.success,
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ paymentIntentId, status: 'succeeded' });
    expect(await balanceOf(agent)).toBe(25.5);

    // The client says $500; the intent says $25.50, and that is what counts.
    const confirm = await agent.post('/api/confirm-payment', { paymentIntentId, amount: 500 });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toEqual({ success: true, amount: 25.5 });
    const again = await agent.post('/api/confirm-payment', { paymentIntentId, amount: '25.50' });
    expect(again.json()).toEqual({ success: true, amount: 25.5 });

    expect(await balanceOf(agent)).toBe(25.5);
    expect(await depositTransfers(t.database, 'sandbox-card', paymentIntentId)).toBe(1);
    const row = await paymentRow(t.database, 'sandbox-card', paymentIntentId);
    expect(row).toMatchObject({ status: 'credited', creditedAmountCents: 2550n });
    expect(row.creditedAt).toBeInstanceOf(Date);
  });

  it('declines 4000 0000 0000 0002 and any other number, and credits nothing', async () => {
    const { agent } = await signUp(t.app);
    const { clientSecret, paymentIntentId } = await createIntent(agent);
    const declined = await agent.post('/api/sandbox/card/confirm', {
      clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.declined,
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toEqual({
      code: 'PAYMENT_DECLINED',
      message: 'Your card was declined.',
    });
    // RETRY starts a new payment (docs/product.md#data); the declined one is ended, at the provider
    // and in our books, so that it no longer holds the player's deposit limits.
    expect(await paymentRow(t.database, 'sandbox-card', paymentIntentId)).toMatchObject({
      status: 'failed',
      providerStatus: 'canceled',
    });
    const again = await agent.post('/api/sandbox/card/confirm', {
      clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.success,
    });
    expect(again.json()).toEqual({
      code: 'PAYMENT_DECLINED',
      message: PAYMENT_MESSAGES.paymentIncomplete,
    });
    const unknown = await agent.post('/api/sandbox/card/confirm', {
      clientSecret: (await createIntent(agent)).clientSecret,
      cardNumber: '4111 1111 1111 1111',
    });
    expect(unknown.json()).toMatchObject({
      code: 'PAYMENT_DECLINED',
      message: PAYMENT_MESSAGES.cardNumberIncorrect,
    });

    const confirm = await agent.post('/api/confirm-payment', { paymentIntentId, amount: 25.5 });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toEqual({
      code: 'PAYMENT_NOT_COMPLETED',
      message: 'The payment process was not completed. Please try again.',
    });
    expect(await balanceOf(agent)).toBe(0);
  });

  it('refuses a forged secret and another player’s intent', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const { clientSecret, paymentIntentId } = await createIntent(owner.agent);
    const forged = clientSecret.replace(/_secret_.*/, '_secret_00000000000000000000000000000000');
    for (const [agent, secret] of [
      [owner.agent, forged],
      [owner.agent, 'not-a-secret'],
      [other.agent, clientSecret],
    ] as const) {
      const response = await agent.post('/api/sandbox/card/confirm', {
        clientSecret: secret,
        cardNumber: SANDBOX_TEST_CARDS.success,
      });
      expect(response.statusCode).toBe(404);
    }
    await owner.agent.post('/api/sandbox/card/confirm', {
      clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.success,
    });
    const stolen = await other.agent.post('/api/confirm-payment', { paymentIntentId, amount: 25 });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toEqual({ code: 'NOT_FOUND', message: 'Payment not found' });
    expect(await balanceOf(other.agent)).toBe(0);
    expect(await balanceOf(owner.agent)).toBe(25.5);

    const unknown = await owner.agent.post('/api/confirm-payment', {
      paymentIntentId: 'pi_doesnotexist',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('credits once when the card form and confirm race, five times each', async () => {
    const { agent } = await signUp(t.app);
    const { clientSecret, paymentIntentId } = await createIntent(agent, 40);
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        agent.post('/api/sandbox/card/confirm', {
          clientSecret,
          cardNumber: SANDBOX_TEST_CARDS.success,
        }),
      ),
      ...Array.from({ length: 5 }, () =>
        agent.post('/api/confirm-payment', { paymentIntentId, amount: 40 }),
      ),
    ]);
    for (const response of responses.slice(0, 5)) expect(response.statusCode).toBe(200);
    for (const response of responses.slice(5)) expect([200, 409]).toContain(response.statusCode);
    expect(await balanceOf(agent)).toBe(40);
    expect(await depositTransfers(t.database, 'sandbox-card', paymentIntentId)).toBe(1);
  });
});

describe('sandbox crypto deposits', () => {
  it('creates a payment with the SPEC fields and a local checkout page', async () => {
    const { agent, user } = await signUp(t.app);
    const response = await agent.post('/api/create-crypto-payment', { amount: '25' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      paymentId: expect.stringMatching(/^\d{12}$/),
      paymentUrl: `/sandbox/crypto/${body.paymentId}`,
      paymentAmount: 0.0005,
      paymentCurrency: 'btc',
      paymentStatus: 'waiting',
      paymentAddress: expect.stringMatching(/^tb1q[a-z0-9]{38}$/),
      orderId: expect.stringMatching(new RegExp(`^deposit-${user.id}-[0-9a-f]{16}$`)),
      qrCodeUrl: null,
      expirationTime: expect.any(String),
    });
    const lifetimeMs = Date.parse(body.expirationTime) - Date.now();
    expect(lifetimeMs).toBeGreaterThan(19 * 60_000);
    expect(lifetimeMs).toBeLessThanOrEqual(20 * 60_000);

    const page = await agent.get(`/api/sandbox/crypto/${body.paymentId}`);
    expect(page.json()).toEqual({
      paymentId: body.paymentId,
      priceAmount: 25,
      paymentAmount: 0.0005,
      paymentCurrency: 'btc',
      paymentAddress: body.paymentAddress,
      status: 'waiting',
      expirationTime: body.expirationTime,
    });
    expect((await agent.get(`/api/check-crypto-payment/${body.paymentId}`)).json()).toEqual({
      status: 'waiting',
    });
    expect(await paymentRow(t.database, 'sandbox-crypto', body.paymentId)).toMatchObject({
      requestedAmountCents: 2500n,
      status: 'pending',
      providerStatus: 'waiting',
      payCurrency: 'btc',
      payAmount: '0.00050000',
      payAddress: body.paymentAddress,
    });
  });

  it.each(['finished', 'confirmed'] as const)(
    'credits the requested amount once when the payment is %s',
    async (status) => {
      const { agent } = await signUp(t.app);
      const { paymentId } = await createCrypto(agent, '12.34');
      const simulated = await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status });
      expect(simulated.statusCode).toBe(200);
      expect(simulated.json()).toEqual({ status });
      expect(await balanceOf(agent)).toBe(12.34);
      expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).json()).toEqual({
        status,
      });
      await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status: 'finished' });
      expect(await balanceOf(agent)).toBe(12.34);
      expect(await depositTransfers(t.database, 'sandbox-crypto', paymentId)).toBe(1);
      const late = await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, {
        status: 'expired',
      });
      expect(late.statusCode).toBe(409);
    },
  );

  it('credits nothing for a partial payment and shows it to the admin', async () => {
    const { agent, user } = await signUp(t.app);
    const { paymentId } = await createCrypto(agent, 30);
    await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status: 'partially_paid' });
    expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).json()).toEqual({
      status: 'partially_paid',
    });
    expect(await balanceOf(agent)).toBe(0);
    const waiting = await listPaymentsForAdmin(t.database.db, { statuses: ['partially_paid'] });
    const mine = waiting.find((row) => row.payment.providerPaymentId === paymentId);
    expect(mine).toMatchObject({
      username: expect.any(String),
      payment: {
        userId: user.id,
        status: 'partially_paid',
        requestedAmountCents: 3000n,
        actuallyPaid: '0.00030000',
        creditedAmountCents: null,
      },
    });

    // Paying the rest completes it.
    await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status: 'finished' });
    expect(await balanceOf(agent)).toBe(30);
  });

  it.each(['expired', 'failed'] as const)('ends a %s payment without credit', async (status) => {
    const { agent } = await signUp(t.app);
    const { paymentId } = await createCrypto(agent);
    await agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status });
    expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).json()).toEqual({ status });
    expect(await paymentRow(t.database, 'sandbox-crypto', paymentId)).toMatchObject({ status });
    expect(await balanceOf(agent)).toBe(0);
  });

  it('refuses another player’s payment id everywhere', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const { paymentId } = await createCrypto(owner.agent);
    for (const response of [
      await other.agent.get(`/api/check-crypto-payment/${paymentId}`),
      await other.agent.get(`/api/sandbox/crypto/${paymentId}`),
      await other.agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status: 'finished' }),
      await owner.agent.get('/api/check-crypto-payment/999999999999'),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'Payment not found' });
    }
    expect(await balanceOf(other.agent)).toBe(0);
    expect(await balanceOf(owner.agent)).toBe(0);
  });

  it('credits once when simulations and polls race, five times each', async () => {
    const { agent } = await signUp(t.app);
    const { paymentId } = await createCrypto(agent, 77.7);
    const responses = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        agent.post(`/api/sandbox/crypto/${paymentId}/simulate`, { status: 'finished' }),
      ),
      ...Array.from({ length: 5 }, () => agent.get(`/api/check-crypto-payment/${paymentId}`)),
    ]);
    for (const response of responses) expect(response.statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(77.7);
    expect(await depositTransfers(t.database, 'sandbox-crypto', paymentId)).toBe(1);
  });

  it('records a manual deposit notification for the admin and credits nothing', async () => {
    const { agent, user } = await signUp(t.app);
    const response = await agent.post('/api/crypto-deposit-notification', {
      amount: '150',
      currency: 'BTC',
    });
    expect(response.statusCode).toBe(201);
    const { paymentId } = response.json<{ paymentId: string }>();
    expect(response.json()).toEqual({
      paymentId: expect.stringMatching(/^manual-/),
      status: 'pending',
      paymentUrl: null,
    });
    expect(await balanceOf(agent)).toBe(0);
    const pending = await listPaymentsForAdmin(t.database.db, {
      statuses: ['pending'],
      providers: ['manual-crypto'],
    });
    expect(pending.find((row) => row.payment.providerPaymentId === paymentId)).toMatchObject({
      payment: {
        userId: user.id,
        requestedAmountCents: 15000n,
        payCurrency: 'btc',
        status: 'pending',
        providerStatus: 'reported',
      },
    });
    const tooSmall = await agent.post('/api/crypto-deposit-notification', {
      amount: 5,
      currency: 'btc',
    });
    expect(tooSmall.json()).toMatchObject({ message: PAYMENT_MESSAGES.amountTooSmall });
  });

  it('gives the operator’s payment page with the notification when one is configured', async () => {
    const page = 'https://nowpayments.io/payment/?iid=5012345678';
    const withPage = await createTestApp({ env: { CRYPTO_FALLBACK_PAYMENT_URL: page } });
    try {
      const { agent } = await signUp(withPage.app);
      const response = await agent.post('/api/crypto-deposit-notification', {
        amount: 20,
        currency: 'btc',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ status: 'pending', paymentUrl: page });
      expect(await balanceOf(agent)).toBe(0);
    } finally {
      await withPage.close();
    }
  });
});

describe('a sandbox payment left unpaid', () => {
  it('expires after 20 minutes, as the poll then reports', async () => {
    let nowMs = Date.parse('2031-03-01T12:00:00Z');
    const timed = await createTestApp({ clock: () => new Date(nowMs) });
    try {
      const { agent } = await signUp(timed.app);
      const { paymentId } = await createCrypto(agent);
      nowMs += 19 * 60_000;
      expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).json()).toEqual({
        status: 'waiting',
      });
      nowMs += 60_000;
      expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).json()).toEqual({
        status: 'expired',
      });
      expect(await paymentRow(timed.database, 'sandbox-crypto', paymentId)).toMatchObject({
        status: 'expired',
      });
    } finally {
      await timed.close();
    }
  });
});

describe('switched off', () => {
  it('answers 503 with the SPEC messages and says crypto is not configured', async () => {
    const off = await createTestApp({
      env: { CARD_PAYMENTS_ENABLED: 'false', CRYPTO_PAYMENTS_ENABLED: 'false' },
    });
    try {
      const { agent } = await signUp(off.app);
      const card = await agent.post('/api/create-payment-intent', { amount: 20 });
      expect(card.statusCode).toBe(503);
      expect(card.json()).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Payment service is currently unavailable. Please try again later.',
      });
      for (const [url, payload] of [
        ['/api/create-crypto-payment', { amount: 20 }],
        ['/api/crypto-deposit-notification', { amount: 20, currency: 'btc' }],
      ] as const) {
        const crypto = await agent.post(url, payload);
        expect(crypto.statusCode).toBe(503);
        expect(crypto.json()).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          message:
            'Cryptocurrency payment service is currently unavailable. Please try again later.',
        });
      }
      expect((await agent.get('/api/crypto-status')).json()).toEqual({
        isConfigured: false,
        publicKeyPattern: null,
      });
      expect((await agent.get('/api/payments/config')).json()).toMatchObject({
        card: { enabled: false },
        crypto: { enabled: false },
      });
    } finally {
      await off.close();
    }
  });
});

describe('rate limits', () => {
  // 20 s into a minute: a 60 s window has 40 s left, a 30 s window 10 s.
  const clock = () => new Date('2031-05-01T10:00:20Z');

  it('limits creations and status checks per player, with retryAfter in seconds', async () => {
    const limited = await createTestApp({
      clock,
      rateLimits: {
        ...GENEROUS_RATE_LIMITS,
        paymentCreatePerUser: { name: 'payment:create', limit: 2, windowMs: 60_000 },
        paymentStatusPerUser: { name: 'payment:status', limit: 3, windowMs: 30_000 },
      },
    });
    try {
      const { agent } = await signUp(limited.app);
      const other = await signUp(limited.app);
      const { paymentId } = await createCrypto(agent);
      await createIntent(agent);
      for (const [url, payload] of [
        ['/api/create-payment-intent', { amount: 20 }],
        ['/api/create-crypto-payment', { amount: 20 }],
        ['/api/crypto-deposit-notification', { amount: 20, currency: 'btc' }],
      ] as const) {
        const refused = await agent.post(url, payload);
        expect(refused.statusCode, url).toBe(429);
        expect(refused.headers['retry-after']).toBe('40');
        expect(refused.json()).toEqual({
          code: 'RATE_LIMITED',
          message: 'Too many payment requests. Please wait 40 seconds before trying again.',
          retryAfter: 40,
        });
      }
      // Another player has a budget of their own.
      await createIntent(other.agent);

      for (let poll = 0; poll < 3; poll += 1) {
        expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).statusCode).toBe(200);
      }
      const polled = await agent.get(`/api/check-crypto-payment/${paymentId}`);
      expect(polled.statusCode).toBe(429);
      expect(polled.json()).toEqual({
        code: 'RATE_LIMITED',
        message: 'Too many payment requests. Please wait 10 seconds before trying again.',
        retryAfter: 10,
      });
      const confirm = await agent.post('/api/confirm-payment', { paymentIntentId: 'pi_abc' });
      expect(confirm.statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
