import { parseAmount, type Cents } from '../money.ts';
import { z } from '../validation.ts';
import { beforeCursor, BIGINT_ID_MAX, idParamsSchema } from './ids.ts';
import { playBreakSchema, suspensionSchema } from './user.ts';

export const ADMIN_BALANCE_MESSAGES = {
  selectUser: 'Please select a user first',
  amountRequired: 'Please enter an amount',
  amountInvalid: 'Please enter a valid number',
  amountZero: 'Please enter an amount other than zero',
  amountTooLarge: 'Adjustments are limited to $1,000,000 at a time',
  belowZero: 'This change would take the balance below zero',
  failed: 'Failed to update balance',
} as const;

/** What a ledger transfer was for; the transactions list shows it in words. */
export const TRANSFER_KINDS = [
  'deposit',
  'stake',
  'prize',
  'refund',
  'settlement',
  /** A reported result's credit leaving review for the winner's wallet (docs/fair-play.md). */
  'review_release',
  'reversal',
  'payout_hold',
  'payout_complete',
  'payout_release',
  'adjustment',
  'unclaimed',
  /** A disputed card payment taken back by the bank (docs/chargebacks.md). */
  'chargeback',
  /** A chargeback undone: the dispute was won. */
  'chargeback_reversal',
  /** Money that reached a player who owes paying the debt first. */
  'debt_repayment',
  /** Card money on its way back to its card: held, refunded, or returned when refused. */
  'card_refund_hold',
  'card_refund',
  'card_refund_release',
] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

const ADJUSTMENT_MAX_CENTS = 100_000_000n;

/**
 * A signed dollar amount typed by an admin ("25", "-3.50"), parsed into cents exactly
 * (docs/product.md#validation: decimals and negatives allowed). Accepts the text or a JSON number.
 */
export const signedAmountSchema = z
  .union([z.string(), z.number()], {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? ADMIN_BALANCE_MESSAGES.amountRequired
        : ADMIN_BALANCE_MESSAGES.amountInvalid,
  })
  .transform((value, ctx): Cents => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: ADMIN_BALANCE_MESSAGES.amountRequired });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: ADMIN_BALANCE_MESSAGES.amountInvalid });
      return z.NEVER;
    }
    if (parsed.cents === 0n) {
      ctx.addIssue({ code: 'custom', message: ADMIN_BALANCE_MESSAGES.amountZero });
      return z.NEVER;
    }
    const magnitude = parsed.cents < 0n ? -parsed.cents : parsed.cents;
    if (magnitude > ADJUSTMENT_MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: ADMIN_BALANCE_MESSAGES.amountTooLarge });
      return z.NEVER;
    }
    return parsed.cents;
  });

export const adminBalanceBodySchema = z.strictObject({
  amount: signedAmountSchema,
  reason: z.string().trim().max(500).optional(),
});

export const adminBalanceResponseSchema = z.object({ balance: z.number() });

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  balance: z.number(),
  isAdmin: z.boolean(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  createdAt: z.string(),
  /** The suspension in force now, if any (an expired one is null). */
  suspension: suspensionSchema.nullable(),
  /** The player's own time-out or self-exclusion in force, which no admin can end. */
  playBreak: playBreakSchema.nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const userIdParamsSchema = idParamsSchema('User not found');

export const TRANSACTION_PAGE_MAX = 100;

export const transactionsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(TRANSACTION_PAGE_MAX).default(20),
  // Transfers have 64-bit ids.
  before: beforeCursor(BIGINT_ID_MAX),
});

export const transactionSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  kind: z.string(),
  /** Signed dollars: positive arrived in the wallet, negative left it. */
  amount: z.number(),
  balanceAfter: z.number(),
  reference: z.object({ type: z.string(), id: z.string() }).nullable(),
  memo: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionPageSchema = z.object({
  items: z.array(transactionSchema),
  /** Pass as `before` to get the next (older) page; null when there is none. */
  nextBefore: z.number().int().nullable(),
});
export type TransactionPage = z.infer<typeof transactionPageSchema>;
