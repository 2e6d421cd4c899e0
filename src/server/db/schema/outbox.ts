import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Mail to send, written in the same transaction as the event that causes it
 * (docs/architecture.md#files-and-mail) and delivered by a worker. `dedupe_key` makes enqueueing
 * the same event twice a no-op.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    dedupeKey: text('dedupe_key').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    metadata: jsonb('metadata'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('outbox_dedupe_key_key').on(table.dedupeKey),
    index('outbox_pending_idx')
      .on(table.nextAttemptAt)
      .where(sql`sent_at is null`),
  ],
);
