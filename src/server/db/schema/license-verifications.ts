import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { uploads } from './uploads.ts';
import { users } from './users.ts';

export const LICENSE_VERIFICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type LicenseVerificationStatus = (typeof LICENSE_VERIFICATION_STATUSES)[number];

/**
 * An uploaded driver's licence waiting for, or having had, an admin's review. A player's status
 * is that of their newest row. At most one row per player is pending: uploading again while one
 * waits replaces its file instead of queueing a second review.
 */
export const licenseVerifications = pgTable(
  'license_verifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id),
    status: text('status', { enum: LICENSE_VERIFICATION_STATUSES }).notNull().default('pending'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /** The admin's word to the player, e.g. why a licence was rejected. */
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('license_verifications_user_id_idx').on(table.userId, table.id),
    index('license_verifications_status_idx').on(table.status, table.id),
    uniqueIndex('license_verifications_one_pending_key')
      .on(table.userId)
      .where(sql`status = 'pending'`),
    check(
      'license_verifications_status_known',
      sql`${table.status} in ('pending', 'approved', 'rejected')`,
    ),
    check(
      'license_verifications_review_consistent',
      sql`(${table.status} = 'pending') = (${table.reviewedBy} is null and ${table.reviewedAt} is null)`,
    ),
  ],
);

export type LicenseVerification = typeof licenseVerifications.$inferSelect;
