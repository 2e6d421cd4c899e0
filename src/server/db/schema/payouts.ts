import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const PAYOUT_STATUSES = ['pending', 'completed', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const PAYOUT_METHODS = ['paypal', 'bank_transfer', 'crypto'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/**
 * A player's request to withdraw (SPEC §3, DESIGN §5). While `pending` the amount sits in the
 * ledger's `payout:hold:{id}`; an admin completes it (the hold leaves to `external:crypto`) or
 * fails it (the hold returns to the wallet). Rows are kept after an account is deleted: they are
 * the record of money that left the platform.
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
    /** The admin who completed or failed it. */
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    index('payouts_user_id_idx').on(table.userId, table.id),
    index('payouts_status_idx').on(table.status, table.id),
    // The payouts export (DESIGN §14) reads a date range of requests in order.
    index('payouts_created_at_idx').on(table.createdAt, table.id),
    check('payouts_amount_positive', sql`${table.amountCents} > 0`),
    check('payouts_status_known', sql`${table.status} in ('pending', 'completed', 'failed')`),
    check(
      'payouts_method_known',
      sql`${table.paymentMethod} in ('paypal', 'bank_transfer', 'crypto')`,
    ),
    // A decided payout names who decided and when; a completed one when, a failed one why.
    check(
      'payouts_decision_consistent',
      sql`(${table.status} = 'pending') = (${table.decidedBy} is null and ${table.decidedAt} is null)
        and (${table.status} = 'completed') = (${table.completedAt} is not null)
        and (${table.status} = 'failed') = (${table.failureReason} is not null)`,
    ),
  ],
);

export type Payout = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;
