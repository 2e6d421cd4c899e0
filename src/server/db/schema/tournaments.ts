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
  uuid,
} from 'drizzle-orm/pg-core';
import { uploads } from './uploads.ts';
import { users } from './users.ts';

export const TOURNAMENT_STATUSES = ['open', 'live', 'finished', 'cancelled'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

/** Why a tournament was cancelled: too few players at its start, or an admin called it off. */
export const TOURNAMENT_CANCEL_CAUSES = ['not_full', 'admin'] as const;
export type TournamentCancelCause = (typeof TOURNAMENT_CANCEL_CAUSES)[number];

/**
 * A single-elimination tournament (docs/tournaments.md). The entry fees live in the ledger's
 * `escrow:tournament:{id}` account from the join until the payout or the refunds; `pool_cents`
 * and `fee_cents` record the payout.
 */
export const tournaments = pgTable(
  'tournaments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    game: text('game').notNull(),
    console: text('console').notNull(),
    entryFeeCents: bigint('entry_fee_cents', { mode: 'bigint' }).notNull(),
    /** The most players it takes: 4, 8, 16, 32 or 64. */
    size: integer('size').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    /** Whole percentages of the pool after the fee, by place (1st, 2nd, …), adding to 100. */
    prizeSplit: integer('prize_split').array().notNull(),
    /** Whether it starts with fewer players than its size, some of them passing round 1. */
    allowByes: boolean('allow_byes').notNull().default(false),
    status: text('status', { enum: TOURNAMENT_STATUSES }).notNull().default('open'),
    /** The random seed the bracket was drawn from (hex), recorded when it started. */
    seed: text('seed'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    winnerId: integer('winner_id').references(() => users.id),
    poolCents: bigint('pool_cents', { mode: 'bigint' }),
    feeCents: bigint('fee_cents', { mode: 'bigint' }),
    cancelCause: text('cancel_cause', { enum: TOURNAMENT_CANCEL_CAUSES }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    index('tournaments_status_starts_at_idx').on(table.status, table.startsAt),
    check('tournaments_entry_fee_positive', sql`${table.entryFeeCents} > 0`),
    check('tournaments_size_known', sql`${table.size} in (4, 8, 16, 32, 64)`),
    check(
      'tournaments_status_known',
      sql`${table.status} in ('open', 'live', 'finished', 'cancelled')`,
    ),
  ],
);
export type Tournament = typeof tournaments.$inferSelect;

export const ENTRY_STATUSES = ['entered', 'left', 'refunded'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/**
 * One player's place in a tournament. A player who leaves and joins again has two rows: each
 * join's fee and refund are named by the entry's id in their idempotency keys.
 */
export const tournamentEntries = pgTable(
  'tournament_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tournamentId: integer('tournament_id')
      .notNull()
      .references(() => tournaments.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: ENTRY_STATUSES }).notNull().default('entered'),
    /** The final place (1 for the winner, 2 for the final's loser, 3 for a semi-final's, …). */
    place: integer('place'),
    prizeCents: bigint('prize_cents', { mode: 'bigint' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    leftAt: timestamp('left_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('tournament_entries_one_per_player')
      .on(table.tournamentId, table.userId)
      .where(sql`status = 'entered'`),
    index('tournament_entries_user_id_idx').on(table.userId, table.id),
    check(
      'tournament_entries_status_known',
      sql`${table.status} in ('entered', 'left', 'refunded')`,
    ),
  ],
);
export type TournamentEntry = typeof tournamentEntries.$inferSelect;

export const MATCH_STATUSES = ['waiting', 'playing', 'reported', 'disputed', 'done'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

/**
 * How a match's result came to stand (as a challenge's `release_cause`), or a bye; past the
 * match's time limit, a no-show claim nobody answered (`no_show`) or a match nobody played
 * (`time_limit`).
 */
export const MATCH_STAND_CAUSES = [
  'confirmed',
  'agreed',
  'review_ended',
  'decided',
  'bye',
  'no_show',
  'time_limit',
] as const;
export type MatchStandCause = (typeof MATCH_STAND_CAUSES)[number];

/**
 * One match of the bracket: round 1 is the first, `slot` counts from 0 at the top. The winner of
 * slot s plays the next round's slot s / 2, as its first player when s is even. No money moves
 * per match: a result is held for review like a challenge's, and only the winner's advance
 * waits for it.
 */
export const tournamentMatches = pgTable(
  'tournament_matches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tournamentId: integer('tournament_id')
      .notNull()
      .references(() => tournaments.id),
    round: integer('round').notNull(),
    slot: integer('slot').notNull(),
    /** The top player, scored as a challenge's creator; the bottom one as its acceptor. */
    playerAId: integer('player_a_id').references(() => users.id),
    playerBId: integer('player_b_id').references(() => users.id),
    status: text('status', { enum: MATCH_STATUSES }).notNull().default('waiting'),
    winnerId: integer('winner_id').references(() => users.id),
    scoreA: integer('score_a'),
    scoreB: integer('score_b'),
    screenshotUrl: text('screenshot_url'),
    notes: text('notes'),
    disputeReason: text('dispute_reason'),
    reportedBy: integer('reported_by').references(() => users.id),
    noShowClaimedBy: integer('no_show_claimed_by').references(() => users.id),
    /** When both players were known: the no-show wait counts from here. */
    readyAt: timestamp('ready_at', { withTimezone: true }),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    reviewEndsAt: timestamp('review_ends_at', { withTimezone: true }),
    stoodAt: timestamp('stood_at', { withTimezone: true }),
    standCause: text('stand_cause', { enum: MATCH_STAND_CAUSES }),
  },
  (table) => [
    uniqueIndex('tournament_matches_position_key').on(table.tournamentId, table.round, table.slot),
    // What the worker looks for: results whose review has ended.
    index('tournament_matches_review_due_idx')
      .on(table.reviewEndsAt)
      .where(sql`status = 'reported'`),
    // And matches past their time limit: unplayed, or with a no-show claim still undecided.
    index('tournament_matches_unplayed_idx')
      .on(table.readyAt)
      .where(sql`status = 'playing' or (status = 'disputed' and no_show_claimed_by is not null)`),
    check(
      'tournament_matches_status_known',
      sql`${table.status} in ('waiting', 'playing', 'reported', 'disputed', 'done')`,
    ),
  ],
);
export type TournamentMatch = typeof tournamentMatches.$inferSelect;

/**
 * What a player of a disputed tournament match puts before the admin, as on a challenge
 * (docs/fair-play.md): a statement, a file kept in `uploads`, or both. Never changed once added.
 */
export const tournamentMatchEvidence = pgTable(
  'tournament_match_evidence',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    matchId: integer('match_id')
      .notNull()
      .references(() => tournamentMatches.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    statement: text('statement'),
    uploadId: uuid('upload_id').references(() => uploads.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('tournament_match_evidence_match_id_idx').on(table.matchId, table.id),
    // Who may read an evidence file: the players of the match it was added to.
    index('tournament_match_evidence_upload_id_idx').on(table.uploadId),
    check(
      'tournament_match_evidence_not_empty',
      sql`${table.statement} is not null or ${table.uploadId} is not null`,
    ),
  ],
);
