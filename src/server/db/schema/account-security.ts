import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './users.ts';

/**
 * A link mailed to a player (docs/accounts.md#account-security): a password reset or an e-mail
 * verification. Only the SHA-256 of the random token is kept; a token is used once, and only before
 * `expires_at`. `email` is the address a verification link proves; a change of address makes older
 * links void.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['password_reset', 'email_verification'] }).notNull(),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('auth_tokens_user_purpose_idx').on(table.userId, table.purpose)],
);

/** One of the ten single-use codes that stand in for the authenticator app; stored hashed. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

/**
 * The password step of a two-factor sign-in, waiting for its code: a random token in a short-lived
 * cookie (its hash here), five minutes and five tries. It is not a session: it opens nothing.
 */
export const pendingSignIns = pgTable(
  'pending_sign_ins',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
  },
  (table) => [index('pending_sign_ins_user_id_idx').on(table.userId)],
);

/**
 * The devices an account has signed in from, keyed by the hash of the browser's `device` cookie
 * (docs/accounts.md#devices): a sign-in from one not listed here mails the player. Keys from
 * before the device cookie (browser and network) stay until the device's first sign-in replaces
 * them.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceKey: text('device_key').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceKey] })],
);

export type AuthToken = typeof authTokens.$inferSelect;
export type AuthTokenPurpose = AuthToken['purpose'];

/**
 * Which accounts signed in on which device (docs/accounts.md#devices): one row per account and
 * device, with the last sign-in's time, address and User-Agent (shown, never compared). Two accounts
 * with one device in the risk window are linked: they never play each other, and the RISK tab lists
 * them.
 */
export const deviceSignIns = pgTable(
  'device_sign_ins',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    firstSignedInAt: timestamp('first_signed_in_at', { withTimezone: true }).notNull(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.deviceHash] }),
    // The accounts of one device in the window: a link check, the RISK tab.
    index('device_sign_ins_device_idx').on(table.deviceHash, table.lastSignedInAt),
    index('device_sign_ins_last_signed_in_at_idx').on(table.lastSignedInAt),
  ],
);

/**
 * A link between two accounts that an admin cleared with a note ("brothers, one console"): the pair
 * may play each other and is no longer flagged for it. Kept in one order (`low < high`).
 */
export const clearedAccountLinks = pgTable(
  'cleared_account_links',
  {
    lowUserId: integer('low_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    highUserId: integer('high_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    note: text('note').notNull(),
    clearedBy: integer('cleared_by').references(() => users.id, { onDelete: 'set null' }),
    clearedAt: timestamp('cleared_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.lowUserId, table.highUserId] }),
    index('cleared_account_links_high_user_id_idx').on(table.highUserId),
    check('cleared_account_links_order', sql`${table.lowUserId} < ${table.highUserId}`),
  ],
);
