import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const CHALLENGE_STATUSES = [
  'open',
  'accepted',
  'completed',
  'disputed',
  'cancelled',
] as const;
export type ChallengeStatus = (typeof CHALLENGE_STATUSES)[number];

/**
 * How a held credit reached a wallet: the opponent confirmed, reported the same winner, let the
 * review run out, or an admin decided a dispute.
 */
export const RELEASE_CAUSES = ['confirmed', 'agreed', 'review_ended', 'decided'] as const;
export type ReleaseCause = (typeof RELEASE_CAUSES)[number];

/**
 * Why a challenge was cancelled: its creator withdrew it, both players called the match off, it
 * ran out of time with no result, an admin refunded a dispute, a suspension withdrew it, or the
 * creator took a break from cash play (docs/responsible-play.md).
 */
export const CANCEL_CAUSES = [
  'creator',
  'mutual',
  'expired',
  'refunded',
  'suspended',
  'play_break',
  'declined',
  /** A card dispute locked the creator's money (docs/chargebacks.md). */
  'money_locked',
] as const;
export type CancelCause = (typeof CANCEL_CAUSES)[number];

/**
 * A money challenge between two players (docs/product.md#data, docs/challenges.md#lifecycle). The
 * stakes themselves live in the ledger's `escrow:challenge:{id}` account; `prize_cents` and
 * `fee_cents` record the settlement.
 */
export const challenges = pgTable(
  'challenges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id),
    acceptorId: integer('acceptor_id').references(() => users.id),
    /**
     * A direct challenge's one possible acceptor (docs/challenges.md#finding-an-opponent): only the
     * creator and this player see it, and only this player may accept or decline it. Null for a
     * public challenge.
     */
    opponentId: integer('opponent_id').references(() => users.id),
    winnerId: integer('winner_id').references(() => users.id),
    /** Each player's stake. */
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    game: text('game').notNull(),
    gamerTag: text('gamer_tag').notNull(),
    phoneNumber: text('phone_number').notNull(),
    console: text('console').notNull(),
    mode: text('mode'),
    platform: text('platform'),
    status: text('status', { enum: CHALLENGE_STATUSES }).notNull().default('open'),
    creatorScore: integer('creator_score'),
    acceptorScore: integer('acceptor_score'),
    screenshotUrl: text('screenshot_url'),
    notes: text('notes'),
    disputeReason: text('dispute_reason'),
    submittedBy: integer('submitted_by').references(() => users.id),
    prizeCents: bigint('prize_cents', { mode: 'bigint' }),
    feeCents: bigint('fee_cents', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * A reported result's review (docs/fair-play.md): the winner's credit waits in
     * `review:challenge:{id}` until the opponent confirms, or until this time. Null on results
     * settled before reviews existed, which paid the winner at once.
     */
    reviewEndsAt: timestamp('review_ends_at', { withTimezone: true }),
    /** When the credit left review for a wallet, and why (`RELEASE_CAUSES`). */
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releaseCause: text('release_cause', { enum: RELEASE_CAUSES }),
    /** When the opponent was told that one hour of review is left. */
    reviewRemindedAt: timestamp('review_reminded_at', { withTimezone: true }),
    /** An accepted match is called off when both players have asked. */
    creatorCancelRequestedAt: timestamp('creator_cancel_requested_at', { withTimezone: true }),
    acceptorCancelRequestedAt: timestamp('acceptor_cancel_requested_at', { withTimezone: true }),
    /** The player who claimed that the opponent never showed (the dispute's reason is No-show). */
    noShowClaimedBy: integer('no_show_claimed_by').references(() => users.id),
    /** Why a cancelled challenge ended (`CANCEL_CAUSES`); null on rows from before. */
    cancelCause: text('cancel_cause', { enum: CANCEL_CAUSES }),
  },
  (table) => [
    index('challenges_status_id_idx').on(table.status, table.id),
    index('challenges_creator_id_idx').on(table.creatorId, table.id),
    index('challenges_acceptor_id_idx').on(table.acceptorId, table.id),
    index('challenges_opponent_id_idx')
      .on(table.opponentId, table.id)
      .where(sql`${table.opponentId} is not null`),
    // Quick match's search: the oldest open public challenge on the same terms.
    index('challenges_quick_match_idx')
      .on(sql`lower(${table.game})`, table.console, table.amountCents, table.id)
      .where(sql`${table.status} = 'open' and ${table.opponentId} is null`),
    // The lobby sorted by stake, and stake ranges (docs/challenges.md#finding-an-opponent); both
    // directions read it.
    index('challenges_status_amount_idx').on(table.status, table.amountCents, table.id),
    // A console's challenges, newest first.
    index('challenges_status_console_idx').on(table.status, table.console, table.id),
    // A player's last results, on their page (docs/challenges.md#finding-an-opponent).
    index('challenges_creator_results_idx')
      .on(table.creatorId, table.completedAt)
      .where(sql`status = 'completed'`),
    index('challenges_acceptor_results_idx')
      .on(table.acceptorId, table.completedAt)
      .where(sql`status = 'completed'`),
    // What the review worker claims: results whose review has ended with the credit still held.
    index('challenges_review_due_idx')
      .on(table.reviewEndsAt)
      .where(sql`status = 'completed' and released_at is null and review_ends_at is not null`),
    // What the expiry worker claims: accepted matches, oldest first.
    index('challenges_accepted_at_idx')
      .on(table.acceptedAt)
      .where(sql`status = 'accepted'`),
    // The overview's daily series (docs/operator-tools.md): challenges made, accepted and reported
    // by day.
    index('challenges_created_at_idx').on(table.createdAt),
    index('challenges_accepted_on_idx').on(table.acceptedAt),
    index('challenges_completed_at_idx').on(table.completedAt),
    check('challenges_amount_positive', sql`${table.amountCents} > 0`),
    check(
      'challenges_status_known',
      sql`${table.status} in ('open', 'accepted', 'completed', 'disputed', 'cancelled')`,
    ),
  ],
);

export type Challenge = typeof challenges.$inferSelect;
