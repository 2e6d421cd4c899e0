import { parseAmount, type Cents } from '../money.ts';
import { z } from '../validation.ts';
import { phoneNumberSchema } from './auth.ts';

/**
 * Payout requests (SPEC §2 Payouts, §3 Payout, §4 payout status, §5, §8; DESIGN §5). Amounts
 * arrive as dollars (a JSON number or decimal text) and are parsed into integer cents exactly.
 */
export const PAYOUT_MIN_CENTS = 100n;
export const PAYOUT_DETAILS_MAX = 500;
export const PAYOUT_REASON_MAX = 1000;

export const PAYOUT_METHOD_VALUES = ['paypal', 'bank_transfer', 'crypto'] as const;
export type PayoutMethodValue = (typeof PAYOUT_METHOD_VALUES)[number];
/** SPEC §5: the three methods are known, but only crypto is offered. */
export const OFFERED_PAYOUT_METHODS: readonly PayoutMethodValue[] = ['crypto'];

export const PAYOUT_STATUS_VALUES = ['pending', 'completed', 'failed'] as const;
export type PayoutStatusValue = (typeof PAYOUT_STATUS_VALUES)[number];

/** SPEC §4: the badge each status shows. */
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
  /** DESIGN §11, word for word. */
  identityRequired:
    "Verify your identity before your first withdrawal: upload your driver's licence in your profile.",
  dailyLimit: (limit: string, left: string) =>
    `Payouts are limited to ${limit} in any 24 hours: you can withdraw up to ${left} now.`,
} as const;

/** SPEC §2: the details field asks for the coin and the address, since only crypto is offered. */
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

/** POST /api/payouts. The balance check happens on the server, under the wallet's lock. */
export const payoutRequestBodySchema = z.strictObject({
  amount: payoutAmountSchema,
  paymentMethod: z
    .enum(PAYOUT_METHOD_VALUES, { error: PAYOUT_MESSAGES.methodInvalid })
    .refine((method) => OFFERED_PAYOUT_METHODS.includes(method), PAYOUT_MESSAGES.onlyCrypto),
  paymentDetails: z
    .string({ error: PAYOUT_MESSAGES.detailsRequired })
    .trim()
    .min(1, PAYOUT_MESSAGES.detailsRequired)
    .max(PAYOUT_DETAILS_MAX, PAYOUT_MESSAGES.detailsMax),
  phoneNumber: phoneNumberSchema,
});
export type PayoutRequestBody = z.input<typeof payoutRequestBodySchema>;

/** SPEC §3 Payout, as its owner sees it. Amounts are dollars; dates ISO strings. */
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
  before: z.coerce.number().int().positive().optional(),
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

export const payoutIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: PAYOUT_MESSAGES.notFound })
    .int(PAYOUT_MESSAGES.notFound)
    .positive(PAYOUT_MESSAGES.notFound)
    .max(2_147_483_647, PAYOUT_MESSAGES.notFound),
});

/** POST /api/admin/payouts/:id/complete: an optional note, e.g. the chain's transaction id. */
export const completePayoutBodySchema = z
  .strictObject({
    note: z.string().trim().max(PAYOUT_REASON_MAX, PAYOUT_MESSAGES.reasonMax).optional(),
  })
  .nullish();

/** POST /api/admin/payouts/:id/fail: the reason is shown to the player. */
export const failPayoutBodySchema = z.strictObject({ reason: reasonSchema });
