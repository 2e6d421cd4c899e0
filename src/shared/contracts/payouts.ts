import { parseAmount, type Cents } from '../money.ts';
import { checkPayoutDestination, PAYOUT_ADDRESS_MESSAGES } from '../payout-coins.ts';
import { z } from '../validation.ts';
import { phoneNumberSchema } from './auth.ts';
import { beforeCursor, idParamsSchema } from './ids.ts';

/**
 * Payout requests (docs/product.md: the Payouts screen, a payout's fields, status, rules and
 * messages; docs/payouts.md). Amounts arrive as dollars (a JSON number or decimal text) and are
 * parsed into integer cents exactly.
 */
export const PAYOUT_MIN_CENTS = 100n;
export const PAYOUT_DETAILS_MAX = 500;
export const PAYOUT_REASON_MAX = 1000;

export const PAYOUT_METHOD_VALUES = ['paypal', 'bank_transfer', 'crypto'] as const;
export type PayoutMethodValue = (typeof PAYOUT_METHOD_VALUES)[number];
/** docs/product.md#validation: the three methods are known, but only crypto is offered. */
export const OFFERED_PAYOUT_METHODS: readonly PayoutMethodValue[] = ['crypto'];

export const PAYOUT_STATUS_VALUES = ['pending', 'completed', 'failed'] as const;

/** docs/payouts.md: where a payout is on its way out, beside its status. */
export const PAYOUT_STAGE_VALUES = [
  'review',
  'queued',
  'sending',
  'sent',
  'completed',
  'failed',
] as const;
export type PayoutStageValue = (typeof PAYOUT_STAGE_VALUES)[number];

/** What the payouts page says of each stage. */
export const PAYOUT_STAGE_LABELS: Record<PayoutStageValue, string> = {
  review: 'Waiting for review',
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  completed: 'Completed',
  failed: 'Failed',
};
export type PayoutStatusValue = (typeof PAYOUT_STATUS_VALUES)[number];

/**
 * What a player reads for a payout held by a risk signal (docs/payouts.md#never-tip-off): never the
 * signal's name, which only the admin sees. Alone, the stage reads as `PAYOUT_TEAM_REVIEW`.
 */
export const PAYOUT_TEAM_REVIEW_REASON = 'a review by our team';
export const PAYOUT_TEAM_REVIEW = 'Waiting for a review by our team';

/** docs/product.md#states: the badge each status shows. */
export const PAYOUT_STATUS_BADGES: Record<PayoutStatusValue, string> = {
  pending: 'PROCESSING',
  completed: 'COMPLETED',
  failed: 'FAILED',
};

export const PAYOUT_MESSAGES = {
  amountRequired: 'Please enter an amount',
  amountInvalid: 'Please enter a valid amount',
  amountPositive: 'Amount must be greater than 0',
  amountMin: 'Minimum payout is $1',
  insufficientBalance: 'Insufficient balance',
  methodInvalid: 'Please choose a payment method',
  onlyCrypto: 'Only crypto payouts are available',
  detailsRequired: 'Payment details are required',
  detailsMax: `Payment details must be at most ${PAYOUT_DETAILS_MAX} characters`,
  notFound: 'Payout not found',
  alreadyCompleted: 'This payout has already been completed',
  alreadyFailed: 'This payout has already been marked failed',
  reasonRequired: 'Please give a reason',
  reasonMax: `Must be at most ${PAYOUT_REASON_MAX} characters`,
  tooMany: 'Too many payout requests. Please try again later.',
  /** docs/responsible-play.md, word for word. */
  identityRequired:
    "Verify your identity before your first withdrawal: upload your driver's licence in your profile.",
  dailyLimit: (limit: string, left: string) =>
    `Payouts are limited to ${limit} in any 24 hours: you can withdraw up to ${left} now.`,
  /** docs/payouts.md. */
  noAddress:
    'This payout has no coin address to send to: pay it outside the platform and mark it completed.',
  notInReview: 'This payout is not waiting for review.',
  inFlight: 'This payout is already on its way: wait for the provider to finish or fail it.',
  automaticOff: 'Automatic payouts are not configured: mark it completed once paid.',
  coinNotOffered: PAYOUT_ADDRESS_MESSAGES.coinNotOffered,
  providerUnavailable: 'The payout provider cannot check the address right now. Please try again.',
  notSandbox: 'Only a payout sent by the sandbox can be simulated.',
  inFlightClosing: (id: number) =>
    `Payout #${id} is on its way to the player: close the account once it has completed or failed.`,
} as const;

/**
 * docs/product.md#screens: the details field asks for the coin and the address, since only crypto
 * is offered.
 */
export const PAYOUT_DETAILS_PLACEHOLDER = 'Crypto coin and wallet address, e.g. BTC bc1q…';

/** A payout amount in dollars, at least $1 with at most two decimals, as cents. */
export const payoutAmountSchema = z
  .union([z.string(), z.number()], {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? PAYOUT_MESSAGES.amountRequired
        : PAYOUT_MESSAGES.amountInvalid,
  })
  .transform((value, ctx): Cents => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountRequired });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountInvalid });
      return z.NEVER;
    }
    if (parsed.cents <= 0n) {
      ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountPositive });
      return z.NEVER;
    }
    if (parsed.cents < PAYOUT_MIN_CENTS) {
      ctx.addIssue({ code: 'custom', message: PAYOUT_MESSAGES.amountMin });
      return z.NEVER;
    }
    return parsed.cents;
  });

const reasonSchema = z
  .string({ error: PAYOUT_MESSAGES.reasonRequired })
  .trim()
  .min(1, PAYOUT_MESSAGES.reasonRequired)
  .max(PAYOUT_REASON_MAX, PAYOUT_MESSAGES.reasonMax);

export const PAYOUT_ADDRESS_MAX = 128;

/**
 * POST /api/payouts. The balance check happens on the server, under the wallet's lock. A SPEC
 * request names where to send in `paymentDetails`; the structured one (docs/payouts.md) names the
 * coin and the address (and a memo where the coin needs one), checked here by the coin's format,
 * and its details may then be left out (the server writes them from the coin and the address).
 */
export const payoutRequestFieldsSchema = z.strictObject({
  amount: payoutAmountSchema,
  paymentMethod: z
    .enum(PAYOUT_METHOD_VALUES, { error: PAYOUT_MESSAGES.methodInvalid })
    .refine((method) => OFFERED_PAYOUT_METHODS.includes(method), PAYOUT_MESSAGES.onlyCrypto),
  paymentDetails: z
    .string({ error: PAYOUT_MESSAGES.detailsRequired })
    .trim()
    .max(PAYOUT_DETAILS_MAX, PAYOUT_MESSAGES.detailsMax)
    .optional(),
  phoneNumber: phoneNumberSchema,
  currency: z
    .string({ error: PAYOUT_ADDRESS_MESSAGES.coinRequired })
    .trim()
    .toLowerCase()
    .max(20, PAYOUT_ADDRESS_MESSAGES.coinNotOffered)
    .optional(),
  address: z
    .string({ error: PAYOUT_ADDRESS_MESSAGES.addressRequired })
    .trim()
    .max(PAYOUT_ADDRESS_MAX, PAYOUT_ADDRESS_MESSAGES.addressTooLong)
    .optional(),
  extraId: z.string().trim().max(64, PAYOUT_ADDRESS_MESSAGES.memoTooLong).optional(),
});

/**
 * The rules across fields: free-text details, or a coin and an address in the coin's format. It
 * runs even when another field is wrong, so that every message shows at once; a field of the
 * wrong type has its own message already and is left alone here.
 */
export function checkPayoutRequest(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const { paymentDetails, currency, address, extraId } = body;
  if (currency === undefined && address === undefined) {
    if (paymentDetails === undefined || paymentDetails === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentDetails'],
        message: PAYOUT_MESSAGES.detailsRequired,
      });
    }
    if (extraId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['extraId'],
        message: PAYOUT_ADDRESS_MESSAGES.coinRequired,
      });
    }
    return;
  }
  if (currency === undefined || currency === '') {
    ctx.addIssue({
      code: 'custom',
      path: ['currency'],
      message: PAYOUT_ADDRESS_MESSAGES.coinRequired,
    });
    return;
  }
  if (text(currency) === undefined || (address !== undefined && text(address) === undefined))
    return;
  const problem = checkPayoutDestination({
    currency: String(currency).trim().toLowerCase(),
    address: text(address)?.trim() ?? '',
    extraId: text(extraId)?.trim(),
  });
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
}

/** Runs the check above on any object, whatever its fields' own checks found. */
export const PAYOUT_REQUEST_CHECK_PARAMS = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

export const payoutRequestBodySchema = payoutRequestFieldsSchema.superRefine(
  (body, ctx) => checkPayoutRequest(body, ctx),
  PAYOUT_REQUEST_CHECK_PARAMS,
);
export type PayoutRequestBody = z.input<typeof payoutRequestBodySchema>;

/** docs/product.md#data Payout, as its owner sees it. Amounts are dollars; dates ISO strings. */
export const payoutSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  amount: z.number(),
  status: z.enum(PAYOUT_STATUS_VALUES),
  paymentMethod: z.enum(PAYOUT_METHOD_VALUES),
  paymentDetails: z.string(),
  phoneNumber: z.string(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** Why an admin failed it; null unless failed. */
  failureReason: z.string().nullable(),
  /** docs/payouts.md: where it is on its way out, and why it waits when it waits for review. */
  stage: z.enum(PAYOUT_STAGE_VALUES),
  stageReason: z.string().nullable(),
  currency: z.string().nullable(),
  address: z.string().nullable(),
  extraId: z.string().nullable(),
  /** The coin amount sent and the rate it was converted at (coins per dollar), as decimal text. */
  coinAmount: z.string().nullable(),
  coinRate: z.string().nullable(),
  txHash: z.string().nullable(),
  /** The transaction on the coin's public explorer, once it has a hash. */
  explorerUrl: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type PayoutView = z.infer<typeof payoutSchema>;

export const payoutRequestResponseSchema = z.object({
  payout: payoutSchema,
  /** The wallet balance after the amount moved to the hold. */
  balance: z.number(),
});
export type PayoutRequestResponse = z.infer<typeof payoutRequestResponseSchema>;

export const PAYOUT_PAGE_MAX = 100;

export const payoutListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAYOUT_PAGE_MAX).default(PAYOUT_PAGE_MAX),
  /** Only payouts with a smaller id: pass the last id of a page to get the next one. */
  before: beforeCursor(),
});

/** The admin's queue: the payout plus whose it is and who decided it. */
export const adminPayoutSchema = payoutSchema.extend({
  username: z.string(),
  decidedBy: z.number().int().nullable(),
  decidedAt: z.string().nullable(),
});
export type AdminPayoutView = z.infer<typeof adminPayoutSchema>;

export const adminPayoutListQuerySchema = payoutListQuerySchema.extend({
  status: z.enum(PAYOUT_STATUS_VALUES).optional(),
});

/**
 * GET /api/payouts/options: the coins payouts are offered in and who sends them (docs/payouts.md).
 */
export const payoutOptionsSchema = z.object({
  /** `manual`: no provider sends them, every payout waits for an admin. */
  mode: z.enum(['nowpayments', 'sandbox', 'manual']),
  coins: z.array(
    z.object({ code: z.string(), label: z.string(), memoLabel: z.string().nullable() }),
  ),
});
export type PayoutOptions = z.infer<typeof payoutOptionsSchema>;

/**
 * GET /api/payouts/limits (docs/chargebacks.md): of the wallet (`available`), what may leave as a
 * payout (`withdrawable`) and what came by card and may go back to its card only for now
 * (`refundableToCard`), in dollars; and the hours a card deposit takes to clear.
 */
export const payoutLimitsSchema = z.object({
  available: z.number(),
  withdrawable: z.number(),
  refundableToCard: z.number(),
  cardClearingHours: z.number().int(),
});
export type PayoutLimits = z.infer<typeof payoutLimitsSchema>;

/**
 * GET /api/admin/payouts/balances: the provider's balance of each offered coin (docs/payouts.md).
 */
export const payoutBalancesSchema = z.object({
  provider: z.enum(['nowpayments', 'sandbox']).nullable(),
  /** Null when the provider could not be asked. */
  balances: z
    .array(
      z.object({
        currency: z.string(),
        amount: z.string(),
        pending: z.string(),
        /** What the queued payouts in this coin need, by the rates they were last estimated at. */
        queuedCount: z.number().int(),
        /** Whether a queued payout waits because the balance is short. */
        short: z.boolean(),
      }),
    )
    .nullable(),
});
export type PayoutBalances = z.infer<typeof payoutBalancesSchema>;

/** POST /api/sandbox/payouts/:id/simulate (docs/payouts.md): end a sandbox withdrawal early. */
export const sandboxPayoutSimulateBodySchema = z.strictObject({
  status: z.enum(['finished', 'failed'], { error: 'Status must be finished or failed' }),
});

export const payoutIdParamsSchema = idParamsSchema(PAYOUT_MESSAGES.notFound);

/** POST /api/admin/payouts/:id/complete: an optional note, e.g. the chain's transaction id. */
export const completePayoutBodySchema = z
  .strictObject({
    note: z.string().trim().max(PAYOUT_REASON_MAX, PAYOUT_MESSAGES.reasonMax).optional(),
  })
  .nullish();

/** POST /api/admin/payouts/:id/fail: the reason is shown to the player. */
export const failPayoutBodySchema = z.strictObject({ reason: reasonSchema });
