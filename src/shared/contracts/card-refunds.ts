import { parseAmount, type Cents } from '../money.ts';
import { z } from '../validation.ts';

/** The texts of REFUND TO CARD and of early fraud warnings (docs/chargebacks.md). */
export const CARD_REFUND_MESSAGES = {
  amountRequired: 'Please enter an amount',
  amountInvalid: 'Please enter a valid amount',
  amountPositive: 'Amount must be greater than 0',
  nothingRefundable: 'None of your balance can be refunded to a card.',
  tooMuch: (most: string) => `You can refund up to ${most} to your card.`,
  requested: (amount: string) =>
    `${amount} is on its way back to your card. Banks take 5 to 10 days to show it.`,
  paymentNotFound: 'No card payment with this id was credited.',
} as const;

/** What REFUND TO CARD asks for: dollars with at most two decimals, as cents. */
export const cardRefundAmountSchema = z
  .union([z.string(), z.number()], {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? CARD_REFUND_MESSAGES.amountRequired
        : CARD_REFUND_MESSAGES.amountInvalid,
  })
  .transform((value, ctx): Cents => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: CARD_REFUND_MESSAGES.amountRequired });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: CARD_REFUND_MESSAGES.amountInvalid });
      return z.NEVER;
    }
    if (parsed.cents <= 0n) {
      ctx.addIssue({ code: 'custom', message: CARD_REFUND_MESSAGES.amountPositive });
      return z.NEVER;
    }
    return parsed.cents;
  });

export const cardRefundBodySchema = z.strictObject({ amount: cardRefundAmountSchema });

export const CARD_REFUND_STATUS_LABELS = {
  pending: 'On its way',
  succeeded: 'Refunded',
  failed: 'Returned to balance',
} as const;

/** One refund to a card, as its player sees it. */
export const cardRefundSchema = z.object({
  id: z.number().int(),
  amount: z.number(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  /** Why the provider refused it; null unless failed. */
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type CardRefundView = z.infer<typeof cardRefundSchema>;

export const cardRefundResponseSchema = z.object({
  refunds: z.array(cardRefundSchema),
  /** The wallet balance after the amount left it. */
  balance: z.number(),
  message: z.string(),
});

/** The sandbox's stand-in for a card network's early fraud warning (admins only). */
export const sandboxFraudWarningBodySchema = z.strictObject({
  paymentIntentId: z
    .string({ error: CARD_REFUND_MESSAGES.paymentNotFound })
    .trim()
    .min(1, CARD_REFUND_MESSAGES.paymentNotFound)
    .max(200, CARD_REFUND_MESSAGES.paymentNotFound),
});

export const sandboxFraudWarningResponseSchema = z.object({
  id: z.string(),
  /** What the platform did: refunded the unplayed payment, or locked the account's money. */
  action: z.enum(['refunded', 'locked', 'ignored']),
});
