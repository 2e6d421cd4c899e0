import { createHmac, randomInt } from 'node:crypto';
import type { CryptoPaymentStatus } from '#shared/contracts/payments.ts';
import { startHttpStub, type HttpStub, type StubReply, type StubRequest } from './http-stub.ts';

export const FAKE_NOWPAYMENTS_KEY = 'ABC1DEF-2GH3IJK-4LM5NOP-6QR7STU';

/** A payment as NOWPayments' GET /v1/payment/{id} and its IPNs write it. */
export interface FakeNowPayment {
  payment_id: number;
  invoice_id: null;
  payment_status: CryptoPaymentStatus;
  pay_address: string;
  payin_extra_id: null;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string;
  order_description: string;
  purchase_id: string;
  outcome_amount: number;
  outcome_currency: string;
  created_at: string;
  updated_at: string;
}

export interface FakeNowPayments extends HttpStub {
  payments: Map<string, FakeNowPayment>;
  /** Answers every request with this until cleared. */
  failure: StubReply | 'hang-up' | null;
  setStatus(id: string, status: CryptoPaymentStatus, actuallyPaid?: number): FakeNowPayment;
  /** The JSON body and `x-nowpayments-sig` of an IPN for the payment, as NOWPayments signs it. */
  ipn(id: string, secret: string): { body: string; signature: string };
}

const problem = (statusCode: number, code: string, message: string): StubReply => ({
  status: statusCode,
  body: { status: false, statusCode, code, message },
});

export const NOWPAYMENTS_FAILURES = {
  serverError: problem(500, 'INTERNAL_ERROR', 'Internal server error'),
  badKey: problem(403, 'INVALID_API_KEY', 'Invalid api key'),
  amountTooSmall: problem(400, 'AMOUNT_MINIMAL_ERROR', 'amountTo is too small'),
  notJson: { status: 502, body: '<html>Bad gateway</html>' },
} as const;

/**
 * A local NOWPayments API (POST /v1/payment, GET /v1/payment/{id}, GET /v1/status) speaking
 * its wire format: `x-api-key`, JSON, ids as strings on creation and numbers on look-up.
 */
export async function startFakeNowPayments(): Promise<FakeNowPayments> {
  const payments = new Map<string, FakeNowPayment>();
  const fake = {} as FakeNowPayments;

  function handle(request: StubRequest): StubReply | 'hang-up' {
    if (fake.failure) return fake.failure;
    if (request.method === 'GET' && request.path === '/v1/status') {
      return { status: 200, body: { message: 'OK' } };
    }
    if (request.headers['x-api-key'] !== FAKE_NOWPAYMENTS_KEY) return NOWPAYMENTS_FAILURES.badKey;
    if (request.method === 'POST' && request.path === '/v1/payment') {
      const input = JSON.parse(request.body) as Record<string, unknown>;
      const priceAmount = Number(input.price_amount);
      const now = new Date().toISOString();
      const payment: FakeNowPayment = {
        payment_id: randomInt(1_000_000_000, 9_999_999_999),
        invoice_id: null,
        payment_status: 'waiting',
        pay_address: `bc1q${randomInt(10 ** 9, 10 ** 10 - 1)}fake`,
        payin_extra_id: null,
        price_amount: priceAmount,
        price_currency: String(input.price_currency),
        // A made-up rate of $40,000 per BTC.
        pay_amount: Number((priceAmount / 40_000).toFixed(8)),
        actually_paid: 0,
        pay_currency: String(input.pay_currency),
        order_id: String(input.order_id),
        order_description: String(input.order_description),
        purchase_id: String(randomInt(1_000_000_000, 9_999_999_999)),
        outcome_amount: 0,
        outcome_currency: String(input.pay_currency),
        created_at: now,
        updated_at: now,
      };
      payments.set(String(payment.payment_id), payment);
      return {
        status: 201,
        body: {
          ...payment,
          payment_id: String(payment.payment_id),
          ipn_callback_url: input.ipn_callback_url ?? null,
          amount_received: 0,
          network: 'btc',
          expiration_estimate_date: new Date(Date.now() + 20 * 60_000).toISOString(),
          is_fixed_rate: false,
          is_fee_paid_by_user: false,
          valid_until: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          type: 'crypto2crypto',
        },
      };
    }
    const lookUp = /^\/v1\/payment\/([^/?]+)$/.exec(request.path);
    if (request.method === 'GET' && lookUp?.[1]) {
      const payment = payments.get(lookUp[1]);
      return payment
        ? { status: 200, body: payment }
        : problem(404, 'PAYMENT_NOT_FOUND', 'Payment not found');
    }
    return problem(404, 'NOT_FOUND', 'Not found');
  }

  const stub = await startHttpStub(handle);
  return Object.assign(fake, stub, {
    payments,
    failure: null,
    setStatus(id: string, status: CryptoPaymentStatus, actuallyPaid?: number): FakeNowPayment {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no fake NOWPayments payment ${id}`);
      payment.payment_status = status;
      payment.actually_paid = actuallyPaid ?? payment.pay_amount;
      payment.updated_at = new Date().toISOString();
      return payment;
    },
    ipn(id: string, secret: string): { body: string; signature: string } {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no fake NOWPayments payment ${id}`);
      // NOWPayments' own recipe for a flat IPN body, written apart from the app's code so that
      // the tests check the app against it: the keys sorted, no spaces, HMAC-SHA512, hex.
      const sortedJson = JSON.stringify(payment, Object.keys(payment).sort());
      const signature = createHmac('sha512', secret).update(sortedJson).digest('hex');
      return { body: JSON.stringify(payment), signature };
    },
  });
}
