import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A signed-in browser. Only the SHA-256 of the cookie's token is kept (docs/accounts.md); `id`
 * names the session in the devices list, where the hash must never appear.
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * What the devices list shows (docs/accounts.md#account-security): the browser's User-Agent and
     * client address.
     */
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    /**
     * The SHA-256 of the browser's device id (docs/accounts.md#devices): the devices list shows one
     * row per device. Null for sessions from before device ids.
     */
    deviceHash: text('device_hash'),
    /**
     * Where the address was located at sign-in (docs/responsible-play.md): the country, the US
     * state by code, and the label the devices list shows. Null for private and unknown addresses.
     */
    placeCountry: text('place_country'),
    placeState: text('place_state'),
    placeLabel: text('place_label'),
  },
  (table) => [
    uniqueIndex('sessions_id_key').on(table.id),
    index('sessions_user_id_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
    // The risk tab (docs/operator-tools.md) groups the sessions used in its window by address and
    // browser.
    index('sessions_last_seen_at_idx').on(table.lastSeenAt),
  ],
);

export type Session = typeof sessions.$inferSelect;
