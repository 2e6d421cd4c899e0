import Stripe from 'stripe';
import {
  PaymentProviderError,
  type CardDisputeReport,
  type CardFraudWarningReport,
  type CardIntent,
  type CardRefundOutcome,
  type CardProvider,
  type CreatedCardIntent,
} from './types.ts';

export interface StripeCardProviderOptions {
  secretKey: string;
  /** Another API host, e.g. http://127.0.0.1:4010 for a local stand-in; Stripe's by default. */
  apiBase?: string | undefined;
  timeoutMs?: number;
  /**
   * The SDK retries connection errors and 5xx answers with backoff (and the same idempotency key).
   */
  maxNetworkRetries?: number;
}

/** A Stripe webhook event reduced to what deposits and disputes need. */
export interface CardWebhookEvent {
  id: string;
  type: string;
  /** The PaymentIntent as the event saw it, for `payment_intent.*` events; null otherwise. */
  intent: CardIntent | null;
  /** The dispute as the event saw it, for `charge.dispute.*` events; null otherwise. */
  dispute: CardDisputeReport | null;
  /** The warning, for `radar.early_fraud_warning.created`; null otherwise. */
  fraudWarning: CardFraudWarningReport | null;
}

export class InvalidWebhookSignatureError extends Error {
  override name = 'InvalidWebhookSignatureError';
}

export interface StripeCardProvider extends CardProvider {
  readonly name: 'stripe';
  readonly mode: 'stripe';
  /** Checks the `Stripe-Signature` header over the raw body and returns the event. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined, secret: string): CardWebhookEvent;
}

const USER_ID_PATTERN = /^[1-9]\d{0,9}$/;

function centsOf(amount: number): bigint {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new PaymentProviderError('unavailable', `Stripe sent an invalid amount: ${amount}`);
  }
  return BigInt(amount);
}

function toCardIntent(intent: Stripe.PaymentIntent): CardIntent {
  const userId = intent.metadata.userId;
  return {
    id: intent.id,
    status: intent.status,
    amountCents: centsOf(intent.amount),
    amountReceivedCents: centsOf(intent.amount_received),
    currency: intent.currency.toLowerCase(),
    userId: userId !== undefined && USER_ID_PATTERN.test(userId) ? Number(userId) : null,
  };
}

function toDisputeReport(
  dispute: Stripe.Dispute,
  type: string,
  created: number,
): CardDisputeReport {
  const intent = dispute.payment_intent;
  const dueBy = dispute.evidence_details.due_by;
  return {
    disputeId: dispute.id,
    paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
    amountCents: centsOf(dispute.amount),
    currency: dispute.currency.toLowerCase(),
    reason: dispute.reason,
    status: dispute.status,
    evidenceDueBy: dueBy === null ? null : new Date(dueBy * 1000),
    fundsReinstated: type === 'charge.dispute.funds_reinstated',
    reportedAt: new Date(created * 1000),
  };
}

function toRefundOutcome(refund: Stripe.Refund): CardRefundOutcome {
  // `pending` (and `requires_action`) may still fail, returning the money to the platform: the
  // refund is asked about again until Stripe says `succeeded`, `failed` or `canceled`.
  if (refund.status === 'succeeded') return { status: 'succeeded', refundId: refund.id };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return {
      status: 'failed',
      refundId: refund.id,
      reason: `Stripe ${refund.status} the refund (${refund.failure_reason ?? 'no reason given'})`,
    };
  }
  return { status: 'pending', refundId: refund.id };
}

function toProviderError(error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  if (error instanceof Stripe.errors.StripeCardError) {
    return new PaymentProviderError('declined', error.message, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.code === 'resource_missing' || error.statusCode === 404) {
      return new PaymentProviderError('not_found', error.message, { cause: error });
    }
    if (error.code === 'amount_too_small') {
      return new PaymentProviderError('amount_too_small', error.message, { cause: error });
    }
  }
  // Connection failures, Stripe's 5xx and 429, and a rejected key are all out of the player's
  // hands: the API answers 503 and the log keeps the cause.
  const detail = error instanceof Error ? error.message : String(error);
  return new PaymentProviderError('unavailable', `Stripe request failed: ${detail}`, {
    cause: error,
  });
}

function stripeConfig(options: StripeCardProviderOptions): Stripe.StripeConfig {
  const config: Stripe.StripeConfig = {
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    telemetry: false,
  };
  if (options.apiBase) {
    const url = new URL(options.apiBase);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.host = url.hostname;
    config.port = url.port || (protocol === 'http' ? 80 : 443);
    config.protocol = protocol;
  }
  return config;
}

/** Card deposits through Stripe PaymentIntents (docs/payments.md), with the official SDK. */
export function createStripeCardProvider(options: StripeCardProviderOptions): StripeCardProvider {
  const stripe = new Stripe(options.secretKey, stripeConfig(options));
  async function retrieveIntent(id: string): Promise<CardIntent> {
    try {
      return toCardIntent(await stripe.paymentIntents.retrieve(id));
    } catch (error) {
      throw toProviderError(error);
    }
  }
  return {
    name: 'stripe',
    mode: 'stripe',

    async createIntent({ userId, amountCents, idempotencyKey }): Promise<CreatedCardIntent> {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: Number(amountCents),
            currency: 'usd',
            automatic_payment_methods: { enabled: true },
            description: 'Account deposit',
            metadata: { userId: String(userId), purpose: 'deposit' },
          },
          { idempotencyKey },
        );
        if (!intent.client_secret) {
          throw new PaymentProviderError(
            'unavailable',
            `Stripe sent no client secret for ${intent.id}`,
          );
        }
        return { ...toCardIntent(intent), clientSecret: intent.client_secret };
      } catch (error) {
        throw toProviderError(error);
      }
    },

    retrieveIntent,

    async cancelIntent(id) {
      try {
        return toCardIntent(
          await stripe.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' }),
        );
      } catch (error) {
        // Paid, processing or cancelled already: Stripe refuses, and the intent stays as it is.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'payment_intent_unexpected_state'
        ) {
          return retrieveIntent(id);
        }
        throw toProviderError(error);
      }
    },

    async sendDisputeEvidence(disputeId, evidence, submit) {
      try {
        await stripe.disputes.update(disputeId, {
          evidence: {
            ...evidence,
            customer_email_address: evidence.customer_email_address ?? undefined,
            customer_purchase_ip: evidence.customer_purchase_ip ?? undefined,
          },
          submit,
        });
      } catch (error) {
        // Stripe refuses an update once the evidence was submitted (an earlier attempt whose
        // answer was lost): if Stripe has our submission, what we meant is done.
        if (submit && error instanceof Stripe.errors.StripeInvalidRequestError) {
          const dispute = await stripe.disputes.retrieve(disputeId).catch(() => null);
          if (dispute && dispute.evidence_details.submission_count > 0) return;
        }
        throw toProviderError(error);
      }
    },

    async refundPayment({ paymentIntentId, amountCents, refundKey, reason }) {
      try {
        for await (const refund of stripe.refunds.list({
          payment_intent: paymentIntentId,
          limit: 100,
        })) {
          if (refund.metadata?.cardRefund === refundKey) return toRefundOutcome(refund);
        }
        const refund = await stripe.refunds.create(
          {
            payment_intent: paymentIntentId,
            amount: Number(amountCents),
            reason,
            metadata: { cardRefund: refundKey },
          },
          { idempotencyKey: refundKey },
        );
        return toRefundOutcome(refund);
      } catch (error) {
        // A request Stripe will never accept (the charge is disputed, or refunded already).
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.statusCode !== undefined &&
          error.statusCode < 500 &&
          error.statusCode !== 401 &&
          error.statusCode !== 429
        ) {
          return { status: 'failed', refundId: null, reason: error.message };
        }
        throw toProviderError(error);
      }
    },

    verifyWebhook(rawBody, signature, secret) {
      if (!signature) throw new InvalidWebhookSignatureError('no Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
      } catch (error) {
        throw new InvalidWebhookSignatureError('Stripe signature check failed', { cause: error });
      }
      switch (event.type) {
        case 'payment_intent.succeeded':
        case 'payment_intent.processing':
        case 'payment_intent.payment_failed':
        case 'payment_intent.canceled':
          return {
            id: event.id,
            type: event.type,
            intent: toCardIntent(event.data.object),
            dispute: null,
            fraudWarning: null,
          };
        case 'charge.dispute.created':
        case 'charge.dispute.updated':
        case 'charge.dispute.closed':
        case 'charge.dispute.funds_withdrawn':
        case 'charge.dispute.funds_reinstated':
          return {
            id: event.id,
            type: event.type,
            intent: null,
            dispute: toDisputeReport(event.data.object, event.type, event.created),
            fraudWarning: null,
          };
        case 'radar.early_fraud_warning.created': {
          const warning = event.data.object;
          const intent = warning.payment_intent;
          return {
            id: event.id,
            type: event.type,
            intent: null,
            dispute: null,
            fraudWarning: {
              warningId: warning.id,
              paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
              fraudType: warning.fraud_type,
            },
          };
        }
        default:
          return {
            id: event.id,
            type: event.type,
            intent: null,
            dispute: null,
            fraudWarning: null,
          };
      }
    },
  };
}
