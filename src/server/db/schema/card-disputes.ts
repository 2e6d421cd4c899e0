import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { payments, type PaymentProviderName } from './payments.ts';
import { users } from './users.ts';

export const DISPUTE_OUTCOMES = ['open', 'won', 'lost'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/**
 * A card payment the cardholder's bank took back (docs/chargebacks.md): Stripe's dispute, or the
 * sandbox's. One per payment: a second dispute of one payment changes nothing. The money moved by
 * the ledger transfers `chargeback:{provider dispute id}` and, when won,
 * `chargeback-reversal:{provider dispute id}`.
 */
export const cardDisputes = pgTable(
  'card_disputes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    providerDisputeId: text('provider_dispute_id').notNull(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** What was charged back: the disputed amount, never more than the payment credited. */
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    /** The bank's reason as the provider names it (`fraudulent`, `product_not_received`, …). */
    reason: text('reason').notNull(),
    /** The provider's own status (`needs_response`, `under_review`, `won`, `lost`, …). */
    providerStatus: text('provider_status').notNull(),
    outcome: text('outcome', { enum: DISPUTE_OUTCOMES }).notNull().default('open'),
    /** The transfer that took the money back, which a reversal names. */
    chargebackTransferId: bigint('chargeback_transfer_id', { mode: 'bigint' }).notNull(),
    /** The last moment the bank takes evidence. */
    evidenceDueBy: timestamp('evidence_due_by', { withTimezone: true }),
    /**
     * What we tell the bank, in the names of Stripe's evidence fields: built and staged at the
     * provider after the dispute is recorded, submitted by an admin or by itself 48 hours before
     * `evidence_due_by`; `evidence_submitted_by` is null for the latter.
     */
    evidence: jsonb('evidence').$type<Record<string, string | null>>(),
    evidenceStagedAt: timestamp('evidence_staged_at', { withTimezone: true }),
    evidenceSubmittedAt: timestamp('evidence_submitted_at', { withTimezone: true }),
    evidenceSubmittedBy: integer('evidence_submitted_by').references(() => users.id),
    /**
     * When the provider reported the status above (the event's time): an older report that
     * arrives later does not take the status or the deadline back.
     */
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    /** Held by the one worker or admin talking to the provider about this dispute. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('card_disputes_provider_dispute_key').on(table.provider, table.providerDisputeId),
    uniqueIndex('card_disputes_payment_key').on(table.paymentId),
    index('card_disputes_user_id_idx').on(table.userId),
    index('card_disputes_open_idx')
      .on(table.evidenceDueBy)
      .where(sql`${table.outcome} = 'open'`),
    check('card_disputes_amount_positive', sql`${table.amountCents} > 0`),
    check(
      'card_disputes_closed_whole',
      sql`(${table.outcome} = 'open') = (${table.closedAt} is null)`,
    ),
  ],
);

export type CardDispute = typeof cardDisputes.$inferSelect;
export type NewCardDispute = typeof cardDisputes.$inferInsert;
