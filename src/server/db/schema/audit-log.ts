import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { AuditAction } from '#shared/contracts/admin.ts';
import { users } from './users.ts';

/** A JSON value as stored in `details`: money travels as decimal strings of cents. */
export type AuditDetails = { [key: string]: AuditValue };
type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };

/**
 * Every admin action: who, when, what, to what and why. Written in the same transaction as the
 * action, so an action without its entry cannot commit. Append-only like the ledger (a trigger
 * in the migration refuses UPDATE, DELETE and TRUNCATE). It names people by id only, so erasing
 * an account's personal data leaves nothing to erase here.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: integer('actor_user_id')
      .notNull()
      .references(() => users.id),
    /** A dotted verb such as `payout.complete` (AUDIT_ACTIONS in the shared contract). */
    action: text('action').$type<AuditAction>().notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    details: jsonb('details').$type<AuditDetails>().notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_target_idx').on(table.targetType, table.targetId),
    index('audit_log_actor_idx').on(table.actorUserId, table.id),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;
