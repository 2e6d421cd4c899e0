import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { challenges } from './challenges.ts';
import { users } from './users.ts';

export const UPLOAD_PURPOSES = ['screenshot', 'license', 'evidence'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/**
 * A file a user uploaded, stored privately under a server-made name
 * (docs/architecture.md#files-and-mail). Who may read it follows from its purpose: a screenshot or
 * a dispute's evidence its challenge's players and admins, a licence admins only.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    challengeId: integer('challenge_id').references(() => challenges.id),
    purpose: text('purpose', { enum: UPLOAD_PURPOSES }).notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    originalName: text('original_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('uploads_owner_id_idx').on(table.ownerId),
    index('uploads_challenge_id_idx').on(table.challengeId),
  ],
);

export type Upload = typeof uploads.$inferSelect;
