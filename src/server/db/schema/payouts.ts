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
import { users } from './users.ts';

export const PAYOUT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * Where a payout is on its way out (docs/payouts.md), beside the SPEC's status: `review` waits for
 * an admin (with the reason), `queued` waits for the sender, `sending` is held by a sender's claim,
 * `sent` left the provider; `completed` and `failed` are the status's own ends.
 */
export const PAYOUT_STAGES = [
  'review',
  'queued',
  'sending',
  'sent',
  'completed',
  'failed',
] as const;
export type PayoutStage = (typeof PAYOUT_STAGES)[number];

export const PAYOUT_METHODS = ['paypal', 'bank_transfer', 'crypto'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * A player's request to withdraw (docs/product.md#data, docs/payments.md). While `pending` the
 * amount sits in the ledger's `payout:hold:{id}`; an admin completes it (the hold leaves to
 * `external:crypto`) or fails it (the hold returns to the wallet). Rows are kept after an account
 * is deleted: they are the record of money that left the platform.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('pending'),
    paymentMethod: text('payment_method', { enum: PAYOUT_METHODS }).notNull(),
    /** Where to send the money, as the player typed it (for crypto: the coin and the address). */
    paymentDetails: text('payment_details').notNull(),
    phoneNumber: text('phone_number').notNull(),
    failureReason: text('failure_reason'),
    stage: text('stage', { enum: PAYOUT_STAGES }).notNull().default('review'),
    /** Why it waits for an admin ("over $500"), or why a queued payout waits for the sender. */
    stageReason: text('stage_reason'),
    /**
     * The structured destination (docs/payouts.md); null for a SPEC request of free-text details.
     */
    currency: text('currency'),
    address: text('address'),
    /** The memo or destination tag, for a coin that needs one. */
    extraId: text('extra_id'),
    /** The admin whose APPROVE & SEND queued it; null when the rules queued it. */
    approvedBy: integer('approved_by').references(() => users.id),
    /** Which provider the sender used, and its withdrawal's and batch's ids. */
    provider: text('provider', { enum: ['nowpayments', 'sandbox'] }),
    providerPayoutId: text('provider_payout_id'),
    providerBatchId: text('provider_batch_id'),
    /** The coin amount sent and the provider's estimate it came from (coins per dollar). */
    coinAmount: text('coin_amount'),
    coinRate: text('coin_rate'),
    txHash: text('tx_hash'),
    /**
     * When the sender next looks at it: a queued payout's send, a failed attempt's retry (with
     * backoff), a claim's lease (a sender that died lets it lapse), a sent payout's status poll.
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    /** The claim of the sender that holds it: a write from an older claim is refused. */
    claimToken: text('claim_token'),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The admin who completed or failed it; null when the provider's answer did. */
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('payouts_user_id_idx').on(table.userId, table.id),
    index('payouts_status_idx').on(table.status, table.id),
    // The payouts export (docs/operator-tools.md) reads a date range of requests in order.
    index('payouts_created_at_idx').on(table.createdAt, table.id),
    // The sender's claim reads the payouts due to it, soonest first.
    index('payouts_sender_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.stage} in ('queued', 'sending', 'sent')`),
    uniqueIndex('payouts_provider_payout_id_idx').on(table.provider, table.providerPayoutId),
    check('payouts_amount_positive', sql`${table.amountCents} > 0`),
    check('payouts_status_known', sql`${table.status} in ('pending', 'completed', 'failed')`),
    check(
      'payouts_method_known',
      sql`${table.paymentMethod} in ('paypal', 'bank_transfer', 'crypto')`,
    ),
    // A decided payout says when (and, decided by an admin, who); a completed one when, a
    // failed one why. The provider's answer decides without an admin.
    check(
      'payouts_decision_consistent',
      sql`(${table.status} = 'pending') = (${table.decidedAt} is null)
        and (${table.status} <> 'pending' or ${table.decidedBy} is null)
        and (${table.status} = 'completed') = (${table.completedAt} is not null)
        and (${table.status} = 'failed') = (${table.failureReason} is not null)`,
    ),
    // The stage agrees with the status: the ends are the same, every other stage is pending.
    check(
      'payouts_stage_consistent',
      sql`case ${table.status} when 'completed' then ${table.stage} = 'completed'
        when 'failed' then ${table.stage} = 'failed'
        else ${table.stage} in ('review', 'queued', 'sending', 'sent') end`,
    ),
    check(
      'payouts_destination_whole',
      sql`(${table.currency} is null) = (${table.address} is null)`,
    ),
  ],
);

export type Payout = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;
