import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * What an admin wrote about a player on the player's page (docs/operator-tools.md). Kept as
 * written: a note is never edited or removed, and each is also in the audit log.
 */
export const adminNotes = pgTable(
  'admin_notes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('admin_notes_user_id_idx').on(table.userId, table.id)],
);

export type AdminNote = typeof adminNotes.$inferSelect;
