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
  alreadySubmitted: 'The evidence of this dispute was submitted already.',
  beingSubmitted: 'The evidence of this dispute is being sent right now. Try again in a minute.',
  providerUnavailable: 'Stripe could not be reached. Please try again later.',
  submitted: 'Evidence submitted to the bank.',
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

/** A dispute's evidence, in the names of Stripe's fields; null until staged. */
export const disputeEvidenceSchema = z.record(z.string(), z.string().nullable());

/** One dispute on the admin's CHARGEBACKS tab (docs/chargebacks.md). */
export const adminChargebackSchema = z.object({
  /** The provider's dispute id (`dp_…`). */
  id: z.string(),
  userId: z.number().int(),
  username: z.string(),
  paymentIntentId: z.string(),
  /** What was charged back, in dollars. */
  amount: z.number(),
  reason: z.string(),
  /** The provider's status (`needs_response`, `under_review`, `won`, `lost`, …). */
  status: z.string(),
  outcome: z.enum(['open', 'won', 'lost']),
  evidenceDueBy: z.string().nullable(),
  evidence: disputeEvidenceSchema.nullable(),
  evidenceStagedAt: z.string().nullable(),
  evidenceSubmittedAt: z.string().nullable(),
  /** Submitted by itself 48 hours before the deadline, not by an admin. */
  submittedAutomatically: z.boolean(),
  createdAt: z.string(),
});
export type AdminChargeback = z.infer<typeof adminChargebackSchema>;

export const adminChargebacksSchema = z.array(adminChargebackSchema);

export const chargebackParamsSchema = z.object({
  id: z
    .string()
    .max(100, CHARGEBACK_MESSAGES.disputeNotFound)
    .regex(/^dp_[A-Za-z0-9_]+$/, CHARGEBACK_MESSAGES.disputeNotFound),
});

export const submitEvidenceResponseSchema = z.object({ message: z.string() });
