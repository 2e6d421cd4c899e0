import { z } from '../validation.ts';
import { idParamsSchema } from './ids.ts';

/** The texts of card disputes and the money lock (docs/chargebacks.md). */
export const CHARGEBACK_MESSAGES = {
  paymentNotFound: 'No card payment with this id was credited.',
  alreadyDisputed: 'This payment is already disputed.',
  disputeNotFound: 'Dispute not found',
  statusInvalid: 'The status must be won or lost.',
  alreadyClosed: 'This dispute is already closed.',
  notLocked: "This player's money is not locked.",
  stillOwes: (debt: string) =>
    `The player still owes ${debt}: the lock can be lifted once the debt is repaid.`,
  lifted: 'Money lock lifted.',
  noteMax: 'Notes are limited to 500 characters',
} as const;

/** The sandbox's stand-in for a bank's dispute of a card payment (admins only). */
export const sandboxDisputeBodySchema = z.strictObject({
  paymentIntentId: z
    .string({ error: CHARGEBACK_MESSAGES.paymentNotFound })
    .trim()
    .min(1, CHARGEBACK_MESSAGES.paymentNotFound)
    .max(200, CHARGEBACK_MESSAGES.paymentNotFound),
});

export const sandboxDisputeResponseSchema = z.object({ id: z.string() });

/** A sandbox dispute by its id (`dp_sandbox_…`). */
export const sandboxDisputeParamsSchema = z.object({
  id: z.string().regex(/^dp_sandbox_[0-9a-f]{24}$/, CHARGEBACK_MESSAGES.disputeNotFound),
});

export const sandboxDisputeCloseBodySchema = z.strictObject({
  status: z.enum(['won', 'lost'], { error: CHARGEBACK_MESSAGES.statusInvalid }),
});

export const sandboxDisputeCloseResponseSchema = z.object({
  id: z.string(),
  status: z.enum(['won', 'lost']),
});

export const liftMoneyLockParamsSchema = idParamsSchema('User not found');

export const liftMoneyLockBodySchema = z
  .strictObject({
    note: z.string().trim().max(500, CHARGEBACK_MESSAGES.noteMax).optional(),
  })
  .nullish();

export const liftMoneyLockResponseSchema = z.object({
  message: z.string(),
  userId: z.number().int(),
});
