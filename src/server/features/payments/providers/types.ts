import type { CryptoPaymentStatus } from '#shared/contracts/payments.ts';

/**
 * How a provider call went wrong, in the terms the API answers with: a card decline carries the
 * provider's message for the player; everything the player cannot fix is `unavailable` (503).
 */
export type ProviderFailureKind = 'unavailable' | 'declined' | 'not_found' | 'amount_too_small';

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A card payment as the provider records it (Stripe's PaymentIntent, or the sandbox's copy). */
export interface CardIntent {
  id: string;
  /** Stripe's words: `requires_payment_method`, `processing`, `succeeded`, `canceled`, … */
  status: string;
  amountCents: bigint;
  amountReceivedCents: bigint;
  /** Lower-case ISO 4217 code. */
  currency: string;
  /** The player named in the intent's metadata; null for an intent this app did not create. */
  userId: number | null;
}

/**
 * A card dispute as the provider reports it (Stripe's Dispute object, or the sandbox's): each
 * report carries the whole dispute as it stands, so reports can be applied in any order.
 */
export interface CardDisputeReport {
  disputeId: string;
  /** The disputed payment; null for a charge this app did not make through a PaymentIntent. */
  paymentIntentId: string | null;
  amountCents: bigint;
  /** Lower-case ISO 4217 code. */
  currency: string;
  /** The bank's reason: `fraudulent`, `product_not_received`, … */
  reason: string;
  /** Stripe's words: `warning_needs_response`, `needs_response`, `under_review`, `won`, `lost`, … */
  status: string;
  evidenceDueBy: Date | null;
  /** The money came back to the platform (`charge.dispute.funds_reinstated`): the dispute is won. */
  fundsReinstated: boolean;
  /** When the provider reported this (the event's time): reports may arrive out of order. */
  reportedAt: Date;
}

/**
 * What the platform tells the bank about a disputed payment (docs/chargebacks.md), in the names of
 * Stripe's dispute evidence fields: the texts are what a reviewer at the bank reads.
 */
export interface DisputeEvidence {
  customer_name: string;
  customer_email_address: string | null;
  customer_purchase_ip: string | null;
  /** The account's sign-ins: times, addresses, places and devices. */
  access_activity_log: string;
  product_description: string;
  /** The day of the payment, YYYY-MM-DD. */
  service_date: string;
  /** The 21+ and terms acceptance, and what the account did with the money. */
  uncategorized_text: string;
}

/** A card network's early warning of fraud on a payment (Stripe's Radar early fraud warning). */
export interface CardFraudWarningReport {
  warningId: string;
  /** The payment it concerns; null for a charge this app did not make through a PaymentIntent. */
  paymentIntentId: string | null;
  /** `made_with_stolen_card`, `unauthorized_use_of_card`, … */
  fraudType: string;
}

/** How a refund of card money ended at the provider. */
export type CardRefundOutcome =
  | { status: 'succeeded'; refundId: string }
  /** Accepted, and not yet through the card network: it may still fail. Ask again later. */
  | { status: 'pending'; refundId: string }
  /** Refused for good (the payment is disputed, or already refunded): the money stays ours. */
  | { status: 'failed'; refundId: string | null; reason: string };

export interface CreatedCardIntent extends CardIntent {
  clientSecret: string;
}

export interface CardProvider {
  readonly name: 'stripe' | 'sandbox-card';
  readonly mode: 'stripe' | 'sandbox';
  createIntent(input: {
    userId: number;
    amountCents: bigint;
    /** Makes a retried creation return the first intent instead of making a second one. */
    idempotencyKey: string;
  }): Promise<CreatedCardIntent>;
  retrieveIntent(id: string): Promise<CardIntent>;
  /**
   * Cancels an intent nobody paid, so it can never be paid later; an intent already paid (or
   * already cancelled) is left as it is. Answers the intent as it stands after the call.
   */
  cancelIntent(id: string): Promise<CardIntent>;
  /**
   * Gives the bank our evidence of a dispute: staged (`submit: false`, editable at the provider)
   * or submitted, after which the dispute's evidence is final. Submitting evidence already
   * submitted succeeds and changes nothing.
   */
  sendDisputeEvidence(disputeId: string, evidence: DisputeEvidence, submit: boolean): Promise<void>;
  /**
   * Gives `amountCents` of a paid intent back to its card, once per `refundKey`: the refund made
   * with that key is looked for first, so a retry after a crash or a lost answer finds it instead
   * of making a second. A provider that cannot be reached throws (`unavailable`): try again later.
   */
  refundPayment(input: {
    paymentIntentId: string;
    amountCents: bigint;
    refundKey: string;
    reason: 'requested_by_customer' | 'fraudulent';
  }): Promise<CardRefundOutcome>;
}

/** Stripe's statuses of an intent that can still be paid: the ones a cancellation ends. */
export const UNPAID_INTENT_STATUSES: ReadonlySet<string> = new Set([
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
]);

/** A crypto payment as the provider records it (NOWPayments, or the sandbox's copy). */
export interface CryptoPaymentRecord {
  id: string;
  status: CryptoPaymentStatus;
  /** The price we asked for, in `priceCurrency`. */
  priceAmountCents: bigint;
  priceCurrency: string;
  /** What the player sends: the provider's decimal text and its lower-case currency code. */
  payAmount: string;
  payCurrency: string;
  payAddress: string;
  actuallyPaid: string | null;
  orderId: string | null;
  expiresAt: Date | null;
}

export interface CryptoProvider {
  readonly name: 'nowpayments' | 'sandbox-crypto';
  readonly mode: 'nowpayments' | 'sandbox';
  /** The coin players are asked to send, as the provider's lower-case code (e.g. btc). */
  readonly payCurrency: string;
  createPayment(input: {
    userId: number;
    amountCents: bigint;
    orderId: string;
  }): Promise<CryptoPaymentRecord>;
  getPayment(id: string): Promise<CryptoPaymentRecord>;
  /** Whether the provider answers at all (NOWPayments' GET /v1/status). */
  isAvailable(): Promise<boolean>;
}
