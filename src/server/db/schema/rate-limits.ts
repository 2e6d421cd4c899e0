import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window counters for throttling (login, registration, payments). They live in the
 * database so that every instance behind a load balancer counts against the same limit.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    bucket: text('bucket').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (table) => [
    primaryKey({ name: 'rate_limit_hits_pkey', columns: [table.bucket, table.windowStart] }),
  ],
);
