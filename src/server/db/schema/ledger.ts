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
import { users } from './users.ts';

/**
 * One row per ledger account (docs/money-and-ledger.md): `user:{id}` wallets, escrows, holds, house
 * and external accounts. `balance_cents` is a cache of the sum of the account's postings, updated
 * in the same statement as the postings. The CHECKs keep wallets, escrows and holds from ever going
 * below zero: a transfer that would overdraw one is refused by the database itself.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    userId: integer('user_id').references(() => users.id),
    allowNegative: boolean('allow_negative').notNull(),
    balanceCents: bigint('balance_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('ledger_accounts_key_key').on(table.key),
    index('ledger_accounts_user_id_idx').on(table.userId),
    // A player's credits under review: few at a time, among every review account they ever had.
    index('ledger_accounts_under_review_idx')
      .on(table.userId)
      .where(sql`kind = 'review' and balance_cents <> 0`),
    // Two checks that never both apply to one row, so the one a refused transfer breaks names
    // the kind of account: a wallet short of money is the player's error, anything else ours.
    check(
      'ledger_accounts_wallet_non_negative',
      sql`${table.kind} <> 'user' or ${table.balanceCents} >= 0`,
    ),
    check(
      'ledger_accounts_non_negative',
      sql`${table.kind} = 'user' or ${table.allowNegative} or ${table.balanceCents} >= 0`,
    ),
    // A player's debt is a receivable's negative balance; the house never owes through one.
    check(
      'ledger_accounts_receivable_not_positive',
      sql`${table.kind} <> 'receivable' or ${table.balanceCents} <= 0`,
    ),
    // The debtors, few among all players: the overview and the invariants read them here.
    index('ledger_accounts_debts_idx')
      .on(table.userId)
      .where(sql`kind = 'receivable' and balance_cents <> 0`),
  ],
);

/** A movement of money: its postings sum to zero. Never updated or deleted. */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    idempotencyKey: text('idempotency_key').notNull(),
    kind: text('kind').notNull(),
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    payloadHash: text('payload_hash').notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    memo: text('memo'),
    reversesTransferId: bigint('reverses_transfer_id', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('ledger_transfers_idempotency_key_key').on(table.idempotencyKey),
    index('ledger_transfers_reference_idx').on(table.referenceType, table.referenceId),
    // Finding whether a transfer was reversed (an admin re-deciding a settled challenge) looks
    // transfers up by the one they reverse; few do, so the index holds only those.
    index('ledger_transfers_reverses_idx')
      .on(table.reversesTransferId)
      .where(sql`reverses_transfer_id is not null`),
    // The transfers that can credit a winner's wallet (a settlement paid out at once, a held
    // credit released), by time: the admin's tax report reads one calendar year of them.
    // The transfers export (docs/operator-tools.md) reads a date range of transfers in order.
    index('ledger_transfers_created_at_idx').on(table.createdAt, table.id),
    index('ledger_transfers_prize_credits_idx')
      .on(table.createdAt)
      .where(sql`reference_type = 'challenge' and kind in ('settlement', 'review_release')`),
  ],
);

/** One side of a transfer on one account: positive adds to the balance, negative takes away. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    transferId: bigint('transfer_id', { mode: 'bigint' })
      .notNull()
      .references(() => ledgerTransfers.id),
    accountId: bigint('account_id', { mode: 'bigint' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    balanceAfterCents: bigint('balance_after_cents', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ledger_postings_account_id_idx').on(table.accountId, table.id),
    index('ledger_postings_transfer_id_idx').on(table.transferId),
    // The overview's daily money (docs/operator-tools.md): one account's postings over a date
    // range, the amount in the index so that summing a day never visits the table.
    index('ledger_postings_account_created_idx').on(
      table.accountId,
      table.createdAt,
      table.amountCents,
    ),
    check('ledger_postings_non_zero', sql`${table.amountCents} <> 0`),
  ],
);

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type LedgerTransfer = typeof ledgerTransfers.$inferSelect;
export type LedgerPosting = typeof ledgerPostings.$inferSelect;
