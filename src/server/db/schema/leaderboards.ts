import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const LEADERBOARD_PERIODS = ['week', 'month', 'all'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];

/** The period start of every all-time row: one bucket since the beginning. */
export const ALL_TIME_START = '1970-01-01';

/**
 * Each player's results per calendar period (a UTC week from Monday, a UTC month, all time),
 * overall (`game_key` '') and per game (`game_key` the game's name in lower case), so that a
 * leaderboard reads its top 50 from an index instead of adding up every challenge
 * (docs/challenges.md#finding-an-opponent). A trigger on `challenges` keeps it (migration 0018): a
 * challenge counts while its status is `completed`, so settling adds it, and a dispute, a refund or
 * an admin's other decision takes it back out or moves it to the other player, in the same
 * transaction.
 */
export const leaderboardEntries = pgTable(
  'leaderboard_entries',
  {
    period: text('period', { enum: LEADERBOARD_PERIODS }).notNull(),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    gameKey: text('game_key').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    played: integer('played').notNull().default(0),
    wins: integer('wins').notNull().default(0),
    /** Prizes credited (prize − fee) minus the stakes of the challenges played. */
    netCents: bigint('net_cents', { mode: 'bigint' }).notNull(),
  },
  (table) => [
    primaryKey({
      name: 'leaderboard_entries_pkey',
      columns: [table.period, table.periodStart, table.gameKey, table.userId],
    }),
    index('leaderboard_entries_net_idx').on(
      table.period,
      table.periodStart,
      table.gameKey,
      table.netCents,
      table.wins,
    ),
    index('leaderboard_entries_wins_idx').on(
      table.period,
      table.periodStart,
      table.gameKey,
      table.wins,
      table.netCents,
    ),
    // A player's own rows: the games they played most, on their page.
    index('leaderboard_entries_user_idx').on(table.userId, table.period, table.gameKey),
    check('leaderboard_entries_period_known', sql`${table.period} in ('week', 'month', 'all')`),
  ],
);

export type LeaderboardEntry = typeof leaderboardEntries.$inferSelect;

/**
 * The games players name on challenges, by their name in lower case, with how many challenges
 * named them: the lobby's game search suggests from here. The same trigger keeps it, on insert.
 */
export const games = pgTable(
  'games',
  {
    key: text('key').primaryKey(),
    /** The name as the latest challenge wrote it. */
    name: text('name').notNull(),
    challenges: integer('challenges').notNull().default(0),
  },
  (table) => [index('games_challenges_idx').on(table.challenges, table.key)],
);
