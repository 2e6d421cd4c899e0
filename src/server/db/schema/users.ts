import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { PLAY_BREAK_KINDS } from '#shared/play-breaks.ts';

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    avatarUrl: text('avatar_url'),
    isOver18: boolean('is_over_18').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(false),
    phoneNumber: text('phone_number'),
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set when an admin deletes the account. The row stays, because the ledger, challenges and
     * payouts name it, but its personal data is erased and it can no longer sign in.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Set while an admin has suspended the player (docs/fair-play.md): they may sign in, read and
     * withdraw available money, but not deposit, create or accept. `suspended_until` null means
     * until an admin lifts it; the reason is shown to the player.
     */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspendedUntil: timestamp('suspended_until', { withTimezone: true }),
    suspensionReason: text('suspension_reason'),
    /**
     * When `email` was proven by a mailed link; cleared when the address changes
     * (docs/accounts.md#account-security).
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /**
     * Two-factor sign-in (docs/accounts.md#account-security): the base32 TOTP secret once enabled;
     * the one being set up until its first code is confirmed; and the last time step accepted, so
     * no code works twice.
     */
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /**
     * The US state the player says they are in, by code (docs/responsible-play.md); null for an
     * account made without one (a SPEC client), whose word is its permitted-location box.
     */
    state: text('state'),
    /**
     * A break the player took from cash play (docs/responsible-play.md): a `time_out` or a
     * `self_exclusion`, in force until `play_break_until`. Nobody can shorten it; it ends by
     * itself. The history of breaks is in `responsible_gaming_changes`.
     */
    playBreakKind: text('play_break_kind', { enum: PLAY_BREAK_KINDS }),
    playBreakUntil: timestamp('play_break_until', { withTimezone: true }),
    /**
     * The money lock (docs/chargebacks.md): set when a card payment of the player's is disputed,
     * with the reason they are shown; no card deposit, stake, entry or payout while it holds. Only
     * an admin lifts it, once the player owes nothing.
     */
    moneyLockedAt: timestamp('money_locked_at', { withTimezone: true }),
    moneyLockReason: text('money_lock_reason'),
  },
  (table) => [
    // Usernames are unique whatever their case: "Alice" and "alice" are one player.
    uniqueIndex('users_username_lower_key').on(sql`lower(${table.username})`),
    // The opponent field's suggestions: usernames by their first letters, in any case.
    index('users_username_prefix_idx').on(sql`lower(${table.username}) text_pattern_ops`),
    // The overview's registrations by day (docs/operator-tools.md).
    index('users_created_at_idx').on(table.createdAt),
    // The admins, whom the RISK tab leaves out (docs/operator-tools.md): a handful of rows.
    index('users_admins_idx')
      .on(table.id)
      .where(sql`${table.isAdmin}`),
    check(
      'users_money_lock_whole',
      sql`(${table.moneyLockedAt} is null) = (${table.moneyLockReason} is null)`,
    ),
    check(
      'users_play_break_whole',
      sql`(${table.playBreakKind} is null) = (${table.playBreakUntil} is null)`,
    ),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
