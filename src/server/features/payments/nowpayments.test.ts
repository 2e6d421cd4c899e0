import { createHmac } from 'node:crypto';
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
import { createNowPaymentsProvider } from './providers/nowpayments-crypto-provider.ts';
import {
  signNowPaymentsBody,
  sortKeysDeep,
  verifyNowPaymentsSignature,
} from './providers/nowpayments-signature.ts';
import { PaymentProviderError } from './providers/types.ts';
import { listPaymentsForAdmin } from './repository.ts';
import { balanceOf, depositTransfers, paymentRow } from './testing/assertions.ts';
import {
  FAKE_NOWPAYMENTS_KEY,
  NOWPAYMENTS_FAILURES,
  startFakeNowPayments,
  type FakeNowPayments,
} from './testing/fake-nowpayments.ts';
import { unusedLocalUrl } from './testing/http-stub.ts';

const IPN_SECRET = 'ipn-secret-for-tests';
const CRYPTO_UNAVAILABLE = {
  code: 'SERVICE_UNAVAILABLE',
  message: 'Cryptocurrency payment service is currently unavailable. Please try again later.',
};

let np: FakeNowPayments;
let t: TestApp;
let nowMs = Date.now();

beforeAll(async () => {
  np = await startFakeNowPayments();
  t = await createTestApp({
    clock: () => new Date(nowMs),
    env: {
      NOWPAYMENTS_API_KEY: FAKE_NOWPAYMENTS_KEY,
      NOWPAYMENTS_IPN_SECRET: IPN_SECRET,
      NOWPAYMENTS_API_BASE: np.url,
      PUBLIC_URL: 'https://play.example.com',
    },
  });
});
beforeEach(() => {
  np.failure = null;
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
  await np.close();
});

async function failureOf(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

async function createPayment(agent: Agent, amount: unknown = 25): Promise<string> {
  const response = await agent.post('/api/create-crypto-payment', { amount });
  expect(response.statusCode).toBe(200);
  return response.json<{ paymentId: string }>().paymentId;
}

function sendIpn(body: string, signature?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/nowpayments',
    payload: body,
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'x-nowpayments-sig': signature }),
    },
  });
}

describe('NOWPayments signature', () => {
  it('is the HMAC-SHA512 of the JSON with keys sorted at every depth', () => {
    const body = { b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } };
    const expectedJson = '{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}';
    expect(JSON.stringify(sortKeysDeep(body))).toBe(expectedJson);
    const expected = createHmac('sha512', 'k').update(expectedJson).digest('hex');
    expect(signNowPaymentsBody(body, 'k')).toBe(expected);
    expect(verifyNowPaymentsSignature(body, expected, 'k')).toBe(true);
    expect(verifyNowPaymentsSignature(body, expected.toUpperCase(), 'k')).toBe(true);
    expect(verifyNowPaymentsSignature({ ...body, b: 2 }, expected, 'k')).toBe(false);
    expect(verifyNowPaymentsSignature(body, expected, 'other')).toBe(false);
    expect(verifyNowPaymentsSignature(body, expected.slice(0, 64), 'k')).toBe(false);
    expect(verifyNowPaymentsSignature(body, undefined, 'k')).toBe(false);
  });
});

describe('NOWPayments adapter against a local NOWPayments API', () => {
  const adapter = (apiBase = np.url, apiKey = FAKE_NOWPAYMENTS_KEY) =>
    createNowPaymentsProvider({
      apiKey,
      apiBase,
      payCurrency: 'btc',
      ipnCallbackUrl: 'https://play.example.com/api/webhooks/nowpayments',
    });

  it('creates a payment priced in USD and reads it back', async () => {
    const before = np.requests.length;
    const created = await adapter().createPayment({
      userId: 5,
      amountCents: 2550n,
      orderId: 'deposit-5-abc',
    });
    const [request] = np.requests.slice(before);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/payment');
    expect(request?.headers['x-api-key']).toBe(FAKE_NOWPAYMENTS_KEY);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      price_amount: 25.5,
      price_currency: 'usd',
      pay_currency: 'btc',
      order_id: 'deposit-5-abc',
      order_description: 'Deposit for player 5',
      ipn_callback_url: 'https://play.example.com/api/webhooks/nowpayments',
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      status: 'waiting',
      priceAmountCents: 2550n,
      priceCurrency: 'usd',
      payAmount: '0.0006375',
      payCurrency: 'btc',
      orderId: 'deposit-5-abc',
      expiresAt: expect.any(Date),
    });

    np.setStatus(created.id, 'finished');
    expect(await adapter().getPayment(created.id)).toMatchObject({
      id: created.id,
      status: 'finished',
      priceAmountCents: 2550n,
      actuallyPaid: '0.0006375',
    });
  });

  it('reports the API status', async () => {
    expect(await adapter().isAvailable()).toBe(true);
    np.failure = NOWPAYMENTS_FAILURES.serverError;
    expect(await adapter().isAvailable()).toBe(false);
    expect(await adapter(await unusedLocalUrl()).isAvailable()).toBe(false);
  });

  it('maps its errors: minimum amount, unknown payment, bad key, 5xx, non-JSON, outage', async () => {
    const create = (provider = adapter()) =>
      provider.createPayment({ userId: 1, amountCents: 1000n, orderId: 'o' });
    expect((await failureOf(adapter().getPayment('123'))).kind).toBe('not_found');
    expect((await failureOf(adapter().getPayment('../status'))).kind).toBe('not_found');
    expect((await failureOf(create(adapter(np.url, 'WRONG-KEY')))).kind).toBe('unavailable');
    for (const [failure, kind] of [
      [NOWPAYMENTS_FAILURES.amountTooSmall, 'amount_too_small'],
      [NOWPAYMENTS_FAILURES.serverError, 'unavailable'],
      [NOWPAYMENTS_FAILURES.notJson, 'unavailable'],
      [{ status: 200, body: { unexpected: true } }, 'unavailable'],
      ['hang-up', 'unavailable'],
    ] as const) {
      np.failure = failure;
      expect((await failureOf(create())).kind).toBe(kind);
    }
    np.failure = null;
    expect((await failureOf(create(adapter(await unusedLocalUrl())))).kind).toBe('unavailable');
  });
});

describe('crypto deposits through NOWPayments', () => {
  it('says crypto is configured and shows only the shape of the key', async () => {
    const { agent } = await signUp(t.app);
    expect((await agent.get('/api/crypto-status')).json()).toEqual({
      isConfigured: true,
      publicKeyPattern: 'XXXXXXX-XXXXXXX-XXXXXXX-XXXXXXX',
    });
    expect((await agent.get('/api/payments/config')).json()).toMatchObject({
      crypto: { enabled: true, mode: 'nowpayments', payCurrency: 'btc' },
    });
    const sandbox = await agent.post('/api/sandbox/crypto/123/simulate', { status: 'finished' });
    expect(sandbox.statusCode).toBe(404);
  });

  it('says crypto is not configured while NOWPayments is down, rechecking after 30 s', async () => {
    const down = await createTestApp({
      database: t.database,
      clock: () => new Date(nowMs),
      env: {
        NOWPAYMENTS_API_KEY: FAKE_NOWPAYMENTS_KEY,
        NOWPAYMENTS_API_BASE: np.url,
        NOWPAYMENTS_PAY_CURRENCY: 'ltc',
      },
    });
    try {
      const { agent } = await signUp(down.app);
      // The coin configured is the one the client names in a fallback report.
      expect((await agent.get('/api/payments/config')).json()).toMatchObject({
        crypto: { payCurrency: 'ltc' },
      });
      np.failure = NOWPAYMENTS_FAILURES.serverError;
      expect((await agent.get('/api/crypto-status')).json()).toMatchObject({
        isConfigured: false,
      });
      np.failure = null;
      expect((await agent.get('/api/crypto-status')).json()).toMatchObject({
        isConfigured: false,
      });
      nowMs += 30_000;
      expect((await agent.get('/api/crypto-status')).json()).toMatchObject({
        isConfigured: true,
      });
      // Without an IPN secret no IPN can be trusted: NOWPayments is told to retry later.
      const ipn = await down.app.inject({
        method: 'POST',
        url: '/api/webhooks/nowpayments',
        payload: { payment_id: 1, payment_status: 'finished' },
      });
      expect(ipn.statusCode).toBe(503);
      expect(ipn.json()).toEqual(CRYPTO_UNAVAILABLE);
    } finally {
      await down.close();
    }
  });

  it('creates a payment with the SPEC fields, then the poll credits it once', async () => {
    const { agent } = await signUp(t.app);
    const response = await agent.post('/api/create-crypto-payment', { amount: '40' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const fake = np.payments.get(body.paymentId);
    expect(body).toEqual({
      paymentId: String(fake?.payment_id),
      paymentUrl: null,
      paymentAmount: 0.001,
      paymentCurrency: 'btc',
      paymentStatus: 'waiting',
      paymentAddress: fake?.pay_address,
      orderId: fake?.order_id,
      qrCodeUrl: null,
      expirationTime: expect.any(String),
    });

    expect((await agent.get(`/api/check-crypto-payment/${body.paymentId}`)).json()).toEqual({
      status: 'waiting',
    });
    np.setStatus(body.paymentId, 'confirming');
    expect((await agent.get(`/api/check-crypto-payment/${body.paymentId}`)).json()).toEqual({
      status: 'confirming',
    });
    expect(await balanceOf(agent)).toBe(0);

    np.setStatus(body.paymentId, 'finished');
    expect((await agent.get(`/api/check-crypto-payment/${body.paymentId}`)).json()).toEqual({
      status: 'finished',
    });
    expect(await balanceOf(agent)).toBe(40);
    // Once credited, the poll answers from our record without asking NOWPayments again.
    const before = np.requests.length;
    expect((await agent.get(`/api/check-crypto-payment/${body.paymentId}`)).json()).toEqual({
      status: 'finished',
    });
    expect(np.requests.length).toBe(before);
    expect(await depositTransfers(t.database, 'nowpayments', body.paymentId)).toBe(1);
  });

  it('answers 503 with the SPEC message when NOWPayments fails, and 400 below its minimum', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent);
    np.failure = NOWPAYMENTS_FAILURES.serverError;
    for (const response of [
      await agent.post('/api/create-crypto-payment', { amount: 25 }),
      await agent.get(`/api/check-crypto-payment/${paymentId}`),
    ]) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(CRYPTO_UNAVAILABLE);
    }
    np.failure = NOWPAYMENTS_FAILURES.amountTooSmall;
    const small = await agent.post('/api/create-crypto-payment', { amount: 10 });
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ message: PAYMENT_MESSAGES.providerMinimum });
  });

  it('refuses another player’s payment id', async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const paymentId = await createPayment(owner.agent);
    np.setStatus(paymentId, 'finished');
    const response = await other.agent.get(`/api/check-crypto-payment/${paymentId}`);
    expect(response.statusCode).toBe(404);
    expect(await balanceOf(other.agent)).toBe(0);
    expect(await balanceOf(owner.agent)).toBe(0);
  });
});

describe('POST /api/webhooks/nowpayments', () => {
  it('credits the requested amount on a correctly signed finished IPN, once', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent, '33.33');
    np.setStatus(paymentId, 'finished');
    const { body, signature } = np.ipn(paymentId, IPN_SECRET);
    for (let delivery = 0; delivery < 2; delivery += 1) {
      const response = await sendIpn(body, signature);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true });
    }
    expect(await balanceOf(agent)).toBe(33.33);
    expect(await paymentRow(t.database, 'nowpayments', paymentId)).toMatchObject({
      status: 'credited',
      providerStatus: 'finished',
      creditedAmountCents: 3333n,
    });
  });

  it('refuses a changed field, a wrong secret and a missing signature', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent, 20);
    np.setStatus(paymentId, 'partially_paid', 0.0001);
    const genuine = np.ipn(paymentId, IPN_SECRET);
    const changed = genuine.body.replace('"partially_paid"', '"finished"');
    expect(changed).not.toBe(genuine.body);
    for (const [body, signature] of [
      [changed, genuine.signature],
      [genuine.body, np.ipn(paymentId, 'not-the-secret').signature],
      [genuine.body, undefined],
    ] as const) {
      const response = await sendIpn(body, signature);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'INVALID_SIGNATURE', message: 'Invalid signature' });
    }
    expect(await balanceOf(agent)).toBe(0);
    expect(await paymentRow(t.database, 'nowpayments', paymentId)).toMatchObject({
      status: 'pending',
    });
  });

  it('records a partial payment for the admin and credits nothing', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent, 50);
    np.setStatus(paymentId, 'partially_paid', 0.0005);
    const { body, signature } = np.ipn(paymentId, IPN_SECRET);
    expect((await sendIpn(body, signature)).statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(0);
    const listed = await listPaymentsForAdmin(t.database.db, { statuses: ['partially_paid'] });
    expect(
      listed.find((row) => row.payment.providerPaymentId === paymentId)?.payment,
    ).toMatchObject({
      status: 'partially_paid',
      actuallyPaid: '0.0005',
      requestedAmountCents: 5000n,
    });
    // A stale "waiting" report afterwards does not hide it from the admin.
    np.setStatus(paymentId, 'waiting', 0.0005);
    const stale = np.ipn(paymentId, IPN_SECRET);
    await sendIpn(stale.body, stale.signature);
    expect(await paymentRow(t.database, 'nowpayments', paymentId)).toMatchObject({
      status: 'partially_paid',
      providerStatus: 'waiting',
    });
  });

  it('does not credit a signed report whose price differs from the requested amount', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent, 20);
    const payment = np.setStatus(paymentId, 'finished');
    payment.price_amount = 2000;
    const { body, signature } = np.ipn(paymentId, IPN_SECRET);
    expect((await sendIpn(body, signature)).statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(0);
  });

  it('acknowledges and ignores an IPN for a payment it does not know', async () => {
    const elsewhere = await createNowPaymentsProvider({
      apiKey: FAKE_NOWPAYMENTS_KEY,
      apiBase: np.url,
      payCurrency: 'btc',
    }).createPayment({ userId: 1, amountCents: 1000n, orderId: 'made-elsewhere' });
    np.setStatus(elsewhere.id, 'finished');
    const { body, signature } = np.ipn(elsewhere.id, IPN_SECRET);
    const response = await sendIpn(body, signature);
    expect(response.statusCode).toBe(200);
    expect(await listPaymentsForAdmin(t.database.db, { providers: ['nowpayments'] })).not.toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          payment: expect.objectContaining({ providerPaymentId: elsewhere.id }),
        }),
      ]),
    );
  });

  it('ends an expired payment', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent);
    np.setStatus(paymentId, 'expired', 0);
    const { body, signature } = np.ipn(paymentId, IPN_SECRET);
    await sendIpn(body, signature);
    expect((await agent.get(`/api/check-crypto-payment/${paymentId}`)).json()).toEqual({
      status: 'expired',
    });
    expect(await paymentRow(t.database, 'nowpayments', paymentId)).toMatchObject({
      status: 'expired',
    });
  });
});

describe('exactly once', () => {
  it('credits once when IPNs and polls race, five times each', async () => {
    const { agent } = await signUp(t.app);
    const paymentId = await createPayment(agent, '18.75');
    np.setStatus(paymentId, 'confirmed');
    const confirmed = np.ipn(paymentId, IPN_SECRET);
    np.setStatus(paymentId, 'finished');
    const finished = np.ipn(paymentId, IPN_SECRET);
    const responses = await Promise.all([
      ...[confirmed, finished, confirmed, finished, finished].map(({ body, signature }) =>
        sendIpn(body, signature),
      ),
      ...Array.from({ length: 5 }, () => agent.get(`/api/check-crypto-payment/${paymentId}`)),
    ]);
    for (const response of responses) expect(response.statusCode).toBe(200);
    expect(await balanceOf(agent)).toBe(18.75);
    expect(await depositTransfers(t.database, 'nowpayments', paymentId)).toBe(1);
  });
});

describe.runIf(onPostgres)('exactly once on PostgreSQL, under load', () => {
  it('credits each of eight payments once while forty-eight calls race on them', async () => {
    const { agent } = await signUp(t.app);
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1) ids.push(await createPayment(agent, 10));
    await Promise.all(
      ids.flatMap((paymentId) => {
        np.setStatus(paymentId, 'finished');
        const { body, signature } = np.ipn(paymentId, IPN_SECRET);
        return [
          sendIpn(body, signature),
          sendIpn(body, signature),
          sendIpn(body, signature),
          agent.get(`/api/check-crypto-payment/${paymentId}`),
          agent.get(`/api/check-crypto-payment/${paymentId}`),
          agent.get(`/api/check-crypto-payment/${paymentId}`),
        ];
      }),
    );
    expect(await balanceOf(agent)).toBe(80);
    for (const id of ids) expect(await depositTransfers(t.database, 'nowpayments', id)).toBe(1);
  });
});
