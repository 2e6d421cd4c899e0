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
 * A money challenge between two players (SPEC §3, DESIGN §3). The stakes themselves live in the
 * ledger's `escrow:challenge:{id}` account; `prize_cents` and `fee_cents` record the settlement.
 */
export const challenges = pgTable(
  'challenges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id),
    acceptorId: integer('acceptor_id').references(() => users.id),
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
  },
  (table) => [
    index('challenges_status_id_idx').on(table.status, table.id),
    index('challenges_creator_id_idx').on(table.creatorId, table.id),
    index('challenges_acceptor_id_idx').on(table.acceptorId, table.id),
    check('challenges_amount_positive', sql`${table.amountCents} > 0`),
    check(
      'challenges_status_known',
      sql`${table.status} in ('open', 'accepted', 'completed', 'disputed', 'cancelled')`,
    ),
  ],
);

export type Challenge = typeof challenges.$inferSelect;
