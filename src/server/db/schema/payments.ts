import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ledgerTransfers } from './ledger.ts';
import { users } from './users.ts';

export const PAYMENT_PROVIDERS = [
  'stripe',
  'sandbox-card',
  'nowpayments',
  'sandbox-crypto',
  'manual-crypto',
] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/**
 * Our side of a payment's life: `pending` until the provider reports it; `credited` once the
 * ledger has taken the deposit (never left again); `partially_paid` waits for an admin;
 * `expired` and `failed` end it, unless the provider later reports it paid after all.
 */
export const PAYMENT_STATUSES = [
  'pending',
  'credited',
  'partially_paid',
  'expired',
  'failed',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * One deposit attempt with one provider (docs/payments.md). The provider's id is unique per
 * provider, and the ledger transfer that credits it uses the key
 * `deposit:{provider}:{providerPaymentId}`, so a payment can credit a wallet once at most, whoever
 * reports it first.
 */
export const payments = pgTable(
  'payments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    method: text('method').$type<'card' | 'crypto'>().notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Our reference sent to the provider (NOWPayments' order_id). */
    orderId: text('order_id'),
    /**
     * The `Idempotency-Key` the player's request carried, if any: a retry with it answers this
     * payment again instead of being judged as a second deposit.
     */
    requestKey: text('request_key'),
    requestedAmountCents: bigint('requested_amount_cents', { mode: 'bigint' }).notNull(),
    creditedAmountCents: bigint('credited_amount_cents', { mode: 'bigint' }),
    /** The currency of the amounts above: always usd today. */
    currency: text('currency').notNull(),
    status: text('status').$type<PaymentStatus>().notNull(),
    /** The provider's own last word on the payment, e.g. `requires_payment_method`, `waiting`. */
    providerStatus: text('provider_status').notNull(),
    /** Crypto: what the player was asked to send, as the provider's decimal text. */
    payCurrency: text('pay_currency'),
    payAmount: text('pay_amount'),
    payAddress: text('pay_address'),
    /** Crypto: how much the provider saw arrive, as its decimal text (partial payments). */
    actuallyPaid: text('actually_paid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    ledgerTransferId: bigint('ledger_transfer_id', { mode: 'bigint' }).references(
      () => ledgerTransfers.id,
    ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    /**
     * When the reconciliation worker next asks the provider about a pending payment, in case
     * its webhook and the player's own confirm or poll never arrive; claiming a payment moves
     * this forward, so that two instances never ask about it at the same time.
     */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true })
      .notNull()
      .default(sql`now() + interval '2 minutes'`),
    /** How many times the worker has asked: the wait between checks doubles with each. */
    checks: integer('checks').notNull().default(0),
  },
  (table) => [
    uniqueIndex('payments_provider_payment_id_key').on(table.provider, table.providerPaymentId),
    index('payments_user_id_idx').on(table.userId, table.id),
    uniqueIndex('payments_request_key_key')
      .on(table.userId, table.requestKey)
      .where(sql`${table.requestKey} is not null`),
    index('payments_status_idx').on(table.status, table.id),
    // The payments export (docs/operator-tools.md) reads a date range of payments in order.
    index('payments_created_at_idx').on(table.createdAt, table.id),
    index('payments_next_check_idx')
      .on(table.nextCheckAt)
      .where(sql`${table.status} = 'pending'`),
    check('payments_requested_positive', sql`${table.requestedAmountCents} > 0`),
    check(
      'payments_status_known',
      sql`${table.status} in ('pending', 'credited', 'partially_paid', 'expired', 'failed')`,
    ),
    check('payments_method_known', sql`${table.method} in ('card', 'crypto')`),
    check(
      'payments_credited_consistent',
      sql`(${table.status} = 'credited') = (${table.creditedAmountCents} is not null and ${table.ledgerTransferId} is not null)`,
    ),
  ],
);

/**
 * Webhook events already handled, per provider: a redelivered event is acknowledged and
 * skipped. Written in the same transaction as the payment update it causes.
 */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'payment_webhook_events_pkey', columns: [table.provider, table.eventId] }),
  ],
);

/**
 * The sandbox providers' own records: what Stripe or NOWPayments would hold, kept locally so the
 * sandbox works offline and across instances. Only the sandbox adapters touch this table.
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<'card' | 'crypto'>().notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    /** Card: SHA-256 of the random part of the client secret. */
    clientSecretHash: text('client_secret_hash'),
    payCurrency: text('pay_currency'),
    payAmount: text('pay_amount'),
    payAddress: text('pay_address'),
    actuallyPaid: text('actually_paid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sandbox_payments_user_id_idx').on(table.userId)],
);

/**
 * The sandbox's refunds of its card payments, as Stripe keeps its Refund objects: the key the
 * refund was made with (`metadata.cardRefund` at Stripe) finds it again, so one is made once.
 */
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    id: text('id').primaryKey(),
    paymentIntentId: text('payment_intent_id')
      .notNull()
      .references(() => sandboxPayments.id),
    refundKey: text('refund_key').notNull().unique('sandbox_refunds_refund_key'),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sandbox_refunds_payment_intent_idx').on(table.paymentIntentId)],
);

export type Payment = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;
export type PaymentWebhookEvent = typeof paymentWebhookEvents.$inferSelect;
export type SandboxPayment = typeof sandboxPayments.$inferSelect;
export type NewSandboxPayment = typeof sandboxPayments.$inferInsert;
