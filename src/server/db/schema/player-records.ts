import { integer, pgTable } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Each player's record (docs/fair-play.md), counted once instead of added up from every challenge
 * on each read: every response shows both players' records. A trigger on `challenges` keeps it
 * (migration 0024): each change of a challenge takes out what its old row counted for its players
 * and puts in what the new row counts, in the same transaction. A player without a row has the
 * empty record.
 */
export const playerRecords = pgTable('player_records', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  played: integer('played').notNull().default(0),
  won: integer('won').notNull().default(0),
  lost: integer('lost').notNull().default(0),
  tiesLost: integer('ties_lost').notNull().default(0),
  disputesOpened: integer('disputes_opened').notNull().default(0),
  disputesLost: integer('disputes_lost').notNull().default(0),
  noShows: integer('no_shows').notNull().default(0),
  cancelled: integer('cancelled').notNull().default(0),
});

export type PlayerRecordRow = typeof playerRecords.$inferSelect;
