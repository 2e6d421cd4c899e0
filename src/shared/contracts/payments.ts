import { parseAmount, type Cents } from '../money.ts';
import { z } from '../validation.ts';

/**
 * Deposits by card and cryptocurrency (docs/product.md#data, docs/product.md#validation,
 * docs/product.md#calls, docs/product.md#messages; docs/payments.md). Amounts arrive as dollars (a
 * JSON number or decimal text) and are parsed into integer cents exactly; responses show dollars as
 * JSON numbers.
 */
export const DEPOSIT_MIN_CENTS = 1_000n;
export const DEPOSIT_MAX_CENTS = 1_000_000n;

export const PAYMENT_MESSAGES = {
  amountRequired: 'Please enter an amount',
  amountInvalid: 'Please enter a valid amount',
  amountTooSmall: 'Minimum deposit amount is $10.',
  amountTooLarge: 'Maximum deposit amount is $10,000.',
  cardUnavailable: 'Payment service is currently unavailable. Please try again later.',
  cryptoUnavailable:
    'Cryptocurrency payment service is currently unavailable. Please try again later.',
  cardDeclined: 'Your card was declined.',
  cardNumberIncorrect: 'Your card number is incorrect.',
  paymentIncomplete: 'The payment process was not completed. Please try again.',
  paymentNotFound: 'Payment not found',
  notUsd: 'This payment is not in US dollars and cannot be credited.',
  providerMinimum: 'This amount is below the minimum the cryptocurrency network accepts.',
  invalidSignature: 'Invalid signature',
  requestKeyReused:
    'This Idempotency-Key was used for another deposit. Send a new key for a new deposit.',
  /** `N` is replaced by the seconds to wait. */
  rateLimited: 'Too many payment requests. Please wait N seconds before trying again.',
} as const;

export function rateLimitedMessage(retryAfterSeconds: number): string {
  return PAYMENT_MESSAGES.rateLimited.replace('N', String(retryAfterSeconds));
}

/** A deposit amount in dollars, $10 to $10,000 with at most two decimals, as cents. */
export const depositAmountSchema = z
  .union([z.string(), z.number()], {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? PAYMENT_MESSAGES.amountRequired
        : PAYMENT_MESSAGES.amountInvalid,
  })
  .transform((value, ctx): Cents => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: PAYMENT_MESSAGES.amountRequired });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: PAYMENT_MESSAGES.amountInvalid });
      return z.NEVER;
    }
    if (parsed.cents < DEPOSIT_MIN_CENTS) {
      ctx.addIssue({ code: 'custom', message: PAYMENT_MESSAGES.amountTooSmall });
      return z.NEVER;
    }
    if (parsed.cents > DEPOSIT_MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: PAYMENT_MESSAGES.amountTooLarge });
      return z.NEVER;
    }
    return parsed.cents;
  });

/** GET /api/payments/config: which providers run, so the UI can show TEST MODE for sandboxes. */
export const paymentsConfigResponseSchema = z.object({
  card: z.object({
    enabled: z.boolean(),
    mode: z.enum(['stripe', 'sandbox']),
    /** Stripe's publishable key for Stripe Elements; null in sandbox mode. */
    publishableKey: z.string().nullable(),
  }),
  crypto: z.object({
    enabled: z.boolean(),
    mode: z.enum(['nowpayments', 'sandbox']),
    /** The coin players send (e.g. btc): what a fallback report names. */
    payCurrency: z.string(),
  }),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigResponseSchema>;

// ---- Card ---------------------------------------------------------------------------------

export const createPaymentIntentBodySchema = z.object({ amount: depositAmountSchema });

export const createPaymentIntentResponseSchema = z.object({
  /** `<paymentIntentId>_secret_<random>`, for Stripe.js or the sandbox card form. */
  clientSecret: z.string(),
  paymentIntentId: z.string(),
});
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponseSchema>;

export const paymentIntentIdSchema = z
  .string()
  .regex(/^pi_[A-Za-z0-9]{1,250}$/, PAYMENT_MESSAGES.paymentNotFound);

export const confirmPaymentBodySchema = z.object({
  paymentIntentId: paymentIntentIdSchema,
  /**
   * The amount the client believes it paid. Accepted for compatibility with docs/product.md#calls
   * and ignored: the credit is always the provider's own record of the payment.
   */
  amount: z.union([z.number(), z.string()]).optional(),
});

export const confirmPaymentResponseSchema = z.object({
  success: z.literal(true),
  /** Dollars credited by this payment (whichever call credited it). */
  amount: z.number(),
});
export type ConfirmPaymentResponse = z.infer<typeof confirmPaymentResponseSchema>;

/** The sandbox's test cards (docs/payments.md), shown on the TEST MODE card form. */
export const SANDBOX_TEST_CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
} as const;

export const sandboxCardConfirmBodySchema = z.object({
  clientSecret: z.string().min(1).max(300),
  cardNumber: z.string().min(1).max(40),
});

export const sandboxCardConfirmResponseSchema = z.object({
  paymentIntentId: z.string(),
  status: z.literal('succeeded'),
});

// ---- Crypto -------------------------------------------------------------------------------

/** NOWPayments' payment statuses (the sandbox uses the same words). */
export const CRYPTO_PAYMENT_STATUSES = [
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const;
export const cryptoPaymentStatusSchema = z.enum(CRYPTO_PAYMENT_STATUSES);
export type CryptoPaymentStatus = z.infer<typeof cryptoPaymentStatusSchema>;

export const cryptoStatusResponseSchema = z.object({
  /** Crypto deposits are switched on and their provider answers. */
  isConfigured: z.boolean(),
  /**
   * The shape of the configured NOWPayments API key with every letter and digit masked
   * ("XXXXXXX-XXXXXXX-…"), so an operator can tell a key is set without it being revealed;
   * null in sandbox mode or when crypto is off.
   */
  publicKeyPattern: z.string().nullable(),
});
export type CryptoStatusResponse = z.infer<typeof cryptoStatusResponseSchema>;

export const createCryptoPaymentBodySchema = z.object({ amount: depositAmountSchema });

export const cryptoPaymentResponseSchema = z.object({
  paymentId: z.string(),
  /**
   * A page where the payment can be made: `/sandbox/crypto/{paymentId}` in sandbox mode; null
   * for NOWPayments, whose payment API has no hosted page (the dialog shows the address).
   */
  paymentUrl: z.string().nullable(),
  /** How much cryptocurrency to send, in `paymentCurrency`. */
  paymentAmount: z.number(),
  paymentCurrency: z.string(),
  paymentStatus: cryptoPaymentStatusSchema,
  paymentAddress: z.string(),
  orderId: z.string(),
  /** Always null: the client draws the QR code from `paymentAddress` itself, offline. */
  qrCodeUrl: z.string().nullable(),
  /** ISO 8601; null when the provider gives no estimate. */
  expirationTime: z.string().nullable(),
});
export type CryptoPaymentResponse = z.infer<typeof cryptoPaymentResponseSchema>;

export const cryptoPaymentIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, PAYMENT_MESSAGES.paymentNotFound);

export const cryptoPaymentParamsSchema = z.object({ paymentId: cryptoPaymentIdSchema });

export const checkCryptoPaymentResponseSchema = z.object({ status: cryptoPaymentStatusSchema });

export const cryptoDepositNotificationBodySchema = z.object({
  amount: depositAmountSchema,
  /** The currency the player says they pay in (e.g. "btc"); recorded for the admin. */
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{2,20}$/, 'Please choose a currency')
    .transform((value) => value.toLowerCase()),
});

export const cryptoDepositNotificationResponseSchema = z.object({
  paymentId: z.string(),
  status: z.literal('pending'),
  /** The operator's page to pay at instead, opened in a new window; null when none is set. */
  paymentUrl: z.string().nullable(),
});

export const SANDBOX_CRYPTO_SIMULATIONS = [
  'finished',
  'confirmed',
  'partially_paid',
  'expired',
  'failed',
] as const;
export type SandboxCryptoSimulation = (typeof SANDBOX_CRYPTO_SIMULATIONS)[number];

export const sandboxCryptoSimulateBodySchema = z.object({
  status: z.enum(SANDBOX_CRYPTO_SIMULATIONS),
});

export const sandboxCryptoSimulateResponseSchema = z.object({ status: cryptoPaymentStatusSchema });

/** GET /api/sandbox/crypto/{paymentId}: what the local checkout page shows. */
export const sandboxCryptoPaymentSchema = z.object({
  paymentId: z.string(),
  /** The requested deposit in dollars. */
  priceAmount: z.number(),
  paymentAmount: z.number(),
  paymentCurrency: z.string(),
  paymentAddress: z.string(),
  status: cryptoPaymentStatusSchema,
  expirationTime: z.string().nullable(),
});
export type SandboxCryptoPayment = z.infer<typeof sandboxCryptoPaymentSchema>;
