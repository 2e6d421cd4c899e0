import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { challenges } from './challenges.ts';
import { uploads } from './uploads.ts';
import { users } from './users.ts';

/**
 * What a player of a disputed challenge puts before the admin (docs/fair-play.md): a statement, a
 * file (an image or a video, kept in `uploads`), or both. Never changed once added.
 */
export const challengeEvidence = pgTable(
  'challenge_evidence',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    challengeId: integer('challenge_id')
      .notNull()
      .references(() => challenges.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    statement: text('statement'),
    uploadId: uuid('upload_id').references(() => uploads.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('challenge_evidence_challenge_id_idx').on(table.challengeId, table.id),
    check(
      'challenge_evidence_not_empty',
      sql`${table.statement} is not null or ${table.uploadId} is not null`,
    ),
  ],
);

export type ChallengeEvidence = typeof challengeEvidence.$inferSelect;

export const PLAYER_REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;
export type PlayerReportStatus = (typeof PLAYER_REPORT_STATUSES)[number];

/** A player's report about another player, waiting in the admins' REPORTS queue. */
export const playerReports = pgTable(
  'player_reports',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    reporterId: integer('reporter_id')
      .notNull()
      .references(() => users.id),
    reportedUserId: integer('reported_user_id')
      .notNull()
      .references(() => users.id),
    challengeId: integer('challenge_id').references(() => challenges.id),
    reason: text('reason').notNull(),
    status: text('status', { enum: PLAYER_REPORT_STATUSES }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedBy: integer('resolved_by').references(() => users.id),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note'),
  },
  (table) => [
    index('player_reports_open_idx')
      .on(table.createdAt)
      .where(sql`status = 'open'`),
    index('player_reports_reported_user_id_idx').on(table.reportedUserId),
  ],
);

export type PlayerReport = typeof playerReports.$inferSelect;
