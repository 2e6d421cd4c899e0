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
} from 'drizzle-orm/pg-core';
import {
  LIMIT_KEYS,
  RESPONSIBLE_GAMING_CHANGE_KINDS,
} from '#shared/contracts/responsible-gaming.ts';
import { users } from './users.ts';

/**
 * A deposit limit a player set on themselves (docs/responsible-play.md), one row per period.
 * `limit_cents` is the limit in force (null: none). A raise or a removal waits 24 hours: it is kept
 * in `pending_cents` (null: the limit is to be removed) until `pending_at`, and is in force from
 * then on; readers apply a due change themselves, so no worker has to.
 */
export const depositLimits = pgTable(
  'deposit_limits',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    period: text('period', { enum: LIMIT_KEYS }).notNull(),
    limitCents: bigint('limit_cents', { mode: 'bigint' }),
    pendingCents: bigint('pending_cents', { mode: 'bigint' }),
    pendingAt: timestamp('pending_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'deposit_limits_pkey', columns: [table.userId, table.period] }),
    check('deposit_limits_period_known', sql`${table.period} in ('daily', 'weekly', 'monthly')`),
    check('deposit_limits_positive', sql`${table.limitCents} is null or ${table.limitCents} > 0`),
    check(
      'deposit_limits_pending_positive',
      sql`${table.pendingCents} is null or ${table.pendingCents} > 0`,
    ),
    check(
      'deposit_limits_pending_has_time',
      sql`${table.pendingCents} is null or ${table.pendingAt} is not null`,
    ),
  ],
);

/**
 * Every change a player made to their limits and breaks, as it was asked for: what the
 * "Play responsibly" page lists, and what an operator can show a regulator. Append-only.
 * `limit_set` took effect at once (a new or lower limit); `limit_raise_requested` takes effect
 * at `effective_at` unless a later change replaces it. `amount_cents` null is no limit.
 */
export const responsibleGamingChanges = pgTable(
  'responsible_gaming_changes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: RESPONSIBLE_GAMING_CHANGE_KINDS }).notNull(),
    period: text('period', { enum: LIMIT_KEYS }),
    amountCents: bigint('amount_cents', { mode: 'bigint' }),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    /** A break's end. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('responsible_gaming_changes_user_idx').on(table.userId, table.id),
    check(
      'responsible_gaming_changes_kind_known',
      sql`${table.kind} in ('limit_set', 'limit_raise_requested', 'time_out', 'self_exclusion')`,
    ),
    check(
      'responsible_gaming_changes_shape',
      sql`case when ${table.kind} in ('time_out', 'self_exclusion')
        then ${table.endsAt} is not null and ${table.period} is null
        else ${table.period} is not null and ${table.endsAt} is null end`,
    ),
  ],
);

export type DepositLimit = typeof depositLimits.$inferSelect;
export type ResponsibleGamingChange = typeof responsibleGamingChanges.$inferSelect;
