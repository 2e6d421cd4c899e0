import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { payments, type PaymentProviderName } from './payments.ts';
import { users } from './users.ts';

export const FRAUD_WARNING_ACTIONS = ['refunded', 'locked', 'ignored'] as const;
export type FraudWarningAction = (typeof FRAUD_WARNING_ACTIONS)[number];

/**
 * A card network's early warning that a payment was fraudulent (Stripe's
 * `radar.early_fraud_warning`, or the sandbox's), recorded once (docs/chargebacks.md): the payment
 * was refunded while its money was still unplayed in the wallet, or else the account's money was
 * locked as a dispute's would be.
 */
export const cardFraudWarnings = pgTable(
  'card_fraud_warnings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    providerWarningId: text('provider_warning_id').notNull(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The network's words: `made_with_stolen_card`, `unauthorized_use_of_card`, … */
    fraudType: text('fraud_type').notNull(),
    action: text('action', { enum: FRAUD_WARNING_ACTIONS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('card_fraud_warnings_provider_warning_key').on(
      table.provider,
      table.providerWarningId,
    ),
    index('card_fraud_warnings_payment_id_idx').on(table.paymentId),
    check(
      'card_fraud_warnings_action_known',
      sql`${table.action} in ('refunded', 'locked', 'ignored')`,
    ),
  ],
);

export const CARD_REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type CardRefundStatus = (typeof CARD_REFUND_STATUSES)[number];

/**
 * Card money going back to its card (docs/chargebacks.md): the player's REFUND TO CARD, split over
 * their newest card payments (one row each), or an early fraud warning's refund. The amount moves
 * from the wallet to the refund's hold (`card-refund:hold:{id}`) when the row is made, and from
 * there to `external:card` once the provider has made the refund (`card-refund:complete:{id}`),
 * or back to the wallet if it refused (`card-refund:release:{id}`). The refund worker claims a
 * pending row (`claimed_until`) while it talks to the provider; the provider is asked for the
 * refund made for this row before a new one is made, so a row refunds once across retries,
 * instances and crashes.
 */
export const cardRefunds = pgTable(
  'card_refunds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    /** The `Idempotency-Key` of the player's request: its retry answers these rows again. */
    requestKey: text('request_key'),
    /** The early fraud warning that made this refund; null for a player's own. */
    fraudWarningId: integer('fraud_warning_id').references(() => cardFraudWarnings.id),
    status: text('status', { enum: CARD_REFUND_STATUSES }).notNull().default('pending'),
    /** The provider's refund (`re_…`), once made. */
    providerRefundId: text('provider_refund_id'),
    failureReason: text('failure_reason'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('card_refunds_user_id_idx').on(table.userId, table.id),
    index('card_refunds_payment_id_idx').on(table.paymentId),
    uniqueIndex('card_refunds_request_key')
      .on(table.userId, table.requestKey, table.paymentId)
      .where(sql`${table.requestKey} is not null`),
    uniqueIndex('card_refunds_fraud_warning_key')
      .on(table.fraudWarningId)
      .where(sql`${table.fraudWarningId} is not null`),
    index('card_refunds_pending_idx')
      .on(table.claimedUntil)
      .where(sql`${table.status} = 'pending'`),
    check('card_refunds_amount_positive', sql`${table.amountCents} > 0`),
    check('card_refunds_status_known', sql`${table.status} in ('pending', 'succeeded', 'failed')`),
    check(
      'card_refunds_ended_whole',
      sql`(${table.status} = 'pending') = (${table.completedAt} is null)`,
    ),
  ],
);

export type CardFraudWarning = typeof cardFraudWarnings.$inferSelect;
export type CardRefund = typeof cardRefunds.$inferSelect;
