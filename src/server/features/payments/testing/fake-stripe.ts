import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { startHttpStub, type HttpStub, type StubReply, type StubRequest } from './http-stub.ts';

/** The parts of a Stripe PaymentIntent that the app reads, as Stripe's API writes them. */
export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  description: string | null;
  livemode: false;
}

export interface FakeStripe extends HttpStub {
  intents: Map<string, FakeIntent>;
  /** Disputes the app may update, with the evidence it sent (form fields, as Stripe got them). */
  disputes: Map<string, FakeDispute & { evidence: Record<string, string> }>;
  /** Refunds made, by id, each with the metadata it was made with. */
  refunds: Map<string, FakeRefund>;
  /** Answers every request with this until cleared (an outage, a rejected key, a decline). */
  failure: StubReply | 'hang-up' | null;
  /** Makes each new refund and then never answers: the caller dies or gives up, not knowing. */
  holdAfterRefund: boolean;
  /** The status new refunds are made with: `succeeded`, or `pending` at the card network. */
  refundStatus: string;
  /** Forgets the idempotency keys seen, as Stripe does after 24 hours. */
  forgetIdempotencyKeys(): void;
  /** Marks an intent paid, as Stripe does after a successful confirmation. */
  succeed(id: string): FakeIntent;
}

const stripeError = (status: number, error: Record<string, string>): StubReply => ({
  status,
  body: { error },
  // Tells the SDK not to retry, as Stripe itself does for answers that will not change.
  headers: { 'stripe-should-retry': 'false' },
});

export const STRIPE_FAILURES = {
  serverError: stripeError(500, { type: 'api_error', message: 'An unknown error occurred' }),
  badKey: stripeError(401, {
    type: 'invalid_request_error',
    message: 'Invalid API Key provided: sk_test_****',
  }),
  declined: stripeError(402, {
    type: 'card_error',
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  }),
} as const;

const missingIntent = (id: string): StubReply =>
  stripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param: 'intent',
    message: `No such payment_intent: '${id}'`,
  });

/** The statuses Stripe lets a PaymentIntent be cancelled from. */
const CANCELLABLE = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
]);

/**
 * A local Stripe API for the PaymentIntents the app uses (create, retrieve, cancel), speaking Stripe's
 * wire format: form-encoded requests, JSON objects and error envelopes, idempotency keys.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, FakeIntent>();
  const disputes: FakeStripe['disputes'] = new Map();
  const byIdempotencyKey = new Map<string, FakeIntent>();
  const refunds = new Map<string, FakeRefund>();
  const refundsByKey = new Map<string, FakeRefund>();
  const fake = {} as FakeStripe;

  function handle(request: StubRequest): StubReply | 'hang-up' | 'hold' {
    if (fake.failure) return fake.failure;
    if (!request.headers.authorization?.startsWith('Bearer sk_')) {
      return STRIPE_FAILURES.badKey;
    }
    if (request.method === 'POST' && request.path === '/v1/payment_intents') {
      const key = request.headers['idempotency-key'];
      const previous = typeof key === 'string' ? byIdempotencyKey.get(key) : undefined;
      if (previous) return { status: 200, body: previous };
      const form = new URLSearchParams(request.body);
      const metadata: Record<string, string> = {};
      for (const [name, value] of form) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount: Number(form.get('amount')),
        amount_received: 0,
        currency: form.get('currency') ?? 'usd',
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        metadata,
        description: form.get('description'),
        livemode: false,
      };
      intents.set(id, intent);
      if (typeof key === 'string') byIdempotencyKey.set(key, intent);
      return { status: 200, body: intent };
    }
    const cancel = /^\/v1\/payment_intents\/([^/?]+)\/cancel$/.exec(request.path);
    if (request.method === 'POST' && cancel?.[1]) {
      const intent = intents.get(decodeURIComponent(cancel[1]));
      if (!intent) return missingIntent(cancel[1]);
      if (!CANCELLABLE.has(intent.status)) {
        return stripeError(400, {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        });
      }
      intent.status = 'canceled';
      return { status: 200, body: intent };
    }
    const dispute = /^\/v1\/disputes\/([^/?]+)$/.exec(request.path);
    if (dispute?.[1]) {
      const found = disputes.get(decodeURIComponent(dispute[1]));
      if (!found) {
        return stripeError(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such dispute: '${dispute[1]}'`,
        });
      }
      if (request.method === 'GET') return { status: 200, body: found };
      if (found.evidence_details.submission_count > 0) {
        return stripeError(400, {
          type: 'invalid_request_error',
          message: 'This dispute has already been submitted and can no longer be updated.',
        });
      }
      const form = new URLSearchParams(request.body);
      for (const [name, value] of form) {
        const field = /^evidence\[(.+)\]$/.exec(name);
        if (field?.[1]) found.evidence[field[1]] = value;
      }
      if (form.get('submit') === 'true') {
        found.evidence_details.submission_count += 1;
        found.evidence_details.has_evidence = true;
        found.status = 'under_review';
      }
      return { status: 200, body: found };
    }
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      const key = request.headers['idempotency-key'];
      const previous = typeof key === 'string' ? refundsByKey.get(key) : undefined;
      if (previous) return { status: 200, body: previous };
      const form = new URLSearchParams(request.body);
      const intentId = form.get('payment_intent') ?? '';
      const intent = intents.get(intentId);
      if (!intent) return missingIntent(intentId);
      if ([...disputes.values()].some((found) => found.payment_intent === intentId)) {
        return stripeError(400, {
          type: 'invalid_request_error',
          code: 'charge_disputed',
          message: `Charge for ${intentId} has been charged back; cannot issue a refund.`,
        });
      }
      const refunded = [...refunds.values()]
        .filter((refund) => refund.payment_intent === intentId)
        .reduce((sum, refund) => sum + refund.amount, 0);
      const amount = Number(form.get('amount') ?? intent.amount_received - refunded);
      if (intent.status !== 'succeeded' || amount > intent.amount_received - refunded) {
        return stripeError(400, {
          type: 'invalid_request_error',
          code: 'charge_already_refunded',
          message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge.`,
        });
      }
      const metadata: Record<string, string> = {};
      for (const [name, value] of form) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match?.[1]) metadata[match[1]] = value;
      }
      const refund: FakeRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount,
        currency: intent.currency,
        metadata,
        payment_intent: intentId,
        reason: form.get('reason'),
        status: fake.refundStatus,
        failure_reason: null,
        created: Math.floor(Date.now() / 1000),
      };
      refunds.set(refund.id, refund);
      if (typeof key === 'string') refundsByKey.set(key, refund);
      if (fake.holdAfterRefund) return 'hold';
      return { status: 200, body: refund };
    }
    const [path, query] = request.path.split('?');
    if (request.method === 'GET' && path === '/v1/refunds') {
      const intentId = new URLSearchParams(query).get('payment_intent');
      const data = [...refunds.values()].filter(
        (refund) => intentId === null || refund.payment_intent === intentId,
      );
      return {
        status: 200,
        body: { object: 'list', data: data.reverse(), has_more: false, url: '/v1/refunds' },
      };
    }
    const retrieve = /^\/v1\/payment_intents\/([^/?]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve?.[1]) {
      const intent = intents.get(decodeURIComponent(retrieve[1]));
      if (intent) return { status: 200, body: intent };
      return missingIntent(retrieve[1]);
    }
    return stripeError(404, { type: 'invalid_request_error', message: 'Unrecognized request URL' });
  }

  const stub = await startHttpStub(handle);
  return Object.assign(fake, stub, {
    intents,
    disputes,
    refunds,
    failure: null,
    holdAfterRefund: false,
    refundStatus: 'succeeded',
    forgetIdempotencyKeys() {
      byIdempotencyKey.clear();
      refundsByKey.clear();
    },
    succeed(id: string): FakeIntent {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no fake intent ${id}`);
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      return intent;
    },
  });
}

/** A Stripe Refund object as Stripe's API writes it. */
export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: string;
  failure_reason: string | null;
  created: number;
}

/** A Radar early fraud warning as Stripe's `radar.early_fraud_warning.created` event writes it. */
export function fakeEarlyFraudWarning(
  intent: Pick<FakeIntent, 'id'>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: `issfr_${randomBytes(12).toString('hex')}`,
    object: 'radar.early_fraud_warning',
    actionable: true,
    charge: `ch_${randomBytes(12).toString('hex')}`,
    created: Math.floor(Date.now() / 1000),
    fraud_type: 'made_with_stolen_card',
    livemode: false,
    payment_intent: intent.id,
    ...overrides,
  };
}

/** A Stripe Dispute object as Stripe's API and its `charge.dispute.*` events write it. */
export interface FakeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  balance_transactions: unknown[];
  charge: string;
  created: number;
  currency: string;
  evidence_details: {
    due_by: number | null;
    has_evidence: boolean;
    past_due: boolean;
    submission_count: number;
  };
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string | null;
  reason: string;
  status: string;
}

/** A dispute of a paid intent, as the bank opens it: the whole amount, a week to answer. */
export function fakeDispute(
  intent: Pick<FakeIntent, 'id' | 'amount_received' | 'currency'>,
  overrides: Partial<FakeDispute> = {},
): FakeDispute {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: `dp_${randomBytes(12).toString('hex')}`,
    object: 'dispute',
    amount: intent.amount_received,
    balance_transactions: [],
    charge: `ch_${randomBytes(12).toString('hex')}`,
    created: now,
    currency: intent.currency,
    evidence_details: {
      due_by: now + 7 * 86_400,
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: intent.id,
    reason: 'fraudulent',
    status: 'needs_response',
    ...overrides,
  };
}

/** A signed Stripe webhook delivery, made with the `stripe` package's own test helper. */
export function signedStripeEvent(
  secret: string,
  event: { id: string; type: string; object: unknown },
  options: { timestamp?: number; created?: number } = {},
): { payload: string; signature: string } {
  const payload = JSON.stringify({
    id: event.id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: options.created ?? Math.floor(Date.now() / 1000),
    type: event.type,
    data: { object: event.object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
  });
  return { payload, signature };
}
