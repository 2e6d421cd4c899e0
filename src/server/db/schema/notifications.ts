import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { challenges } from './challenges.ts';
import { users } from './users.ts';

/**
 * What a player is told (docs/fair-play.md): written in the same transaction as its cause, pushed
 * over `/ws` once that commits, and listed by `GET /api/notifications`. `dedupe_key` makes writing
 * the same news twice (a worker's retried pass) a no-op.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    challengeId: integer('challenge_id').references(() => challenges.id),
    title: text('title').notNull(),
    body: text('body').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('notifications_dedupe_key_key').on(table.dedupeKey),
    index('notifications_user_id_idx').on(table.userId, table.id),
    index('notifications_unread_idx')
      .on(table.userId)
      .where(sql`read_at is null`),
  ],
);

export type Notification = typeof notifications.$inferSelect;
