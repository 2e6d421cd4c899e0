import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { ledgerAccounts, ledgerPostings, ledgerTransfers } from '../../db/schema/ledger.ts';
import { users, type User } from '../../db/schema/users.ts';
import { challengeEscrow, challengeReview, userWallet } from '../ledger/accounts.ts';

export interface UserWithBalance {
  user: User;
  balanceCents: bigint;
}

/** Accounts that still exist: deleted ones have no name, no balance and nothing to manage. */
export async function listUsersWithBalances(
  db: Executor,
  page: { limit: number; offset: number },
): Promise<UserWithBalance[]> {
  const rows = await db
    .select({
      user: users,
      // SPEC §3's balance: the wallet and what reported results hold (DESIGN §10).
      balanceCents: sql<bigint>`coalesce(${ledgerAccounts.balanceCents}, 0) + coalesce((
        select sum(r.balance_cents) from ledger_accounts r
        where r.user_id = ${users.id} and r.kind = 'review' and r.balance_cents <> 0), 0)`.mapWith(
        (value: unknown) => BigInt(String(value)),
      ),
    })
    .from(users)
    .leftJoin(
      ledgerAccounts,
      and(eq(ledgerAccounts.userId, users.id), eq(ledgerAccounts.kind, 'user')),
    )
    .where(isNull(users.deletedAt))
    .orderBy(asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({ user: row.user, balanceCents: row.balanceCents ?? 0n }));
}

/**
 * Locks a user's row until the transaction ends. Deletion takes it `update`; an admin's balance
 * change takes it `share`, so the two cannot interleave. Inserting a row that references the
 * user (a challenge, an acceptance, a payout) takes a key-share lock on it too, so while a
 * deletion holds the row none of those can start, and the deletion sees all that finished.
 */
export async function lockUser(
  db: Executor,
  id: number,
  strength: 'update' | 'share',
): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1).for(strength);
  return user;
}

/**
 * The challenges a deletion must settle, locked in id order: the user's open challenges and the
 * accepted ones they play in. `for update` re-checks the condition after waiting for a lock, so a
 * challenge that changed state meanwhile is left out.
 */
export async function lockActiveChallengesOf(db: Executor, userId: number): Promise<Challenge[]> {
  return db
    .select()
    .from(challenges)
    .where(
      or(
        and(eq(challenges.creatorId, userId), eq(challenges.status, 'open')),
        and(
          or(eq(challenges.creatorId, userId), eq(challenges.acceptorId, userId)),
          eq(challenges.status, 'accepted'),
        ),
      ),
    )
    .orderBy(asc(challenges.id))
    .for('update');
}

/** A player's open challenges, locked in id order, for a suspension to withdraw. */
export async function lockOpenChallengesOf(db: Executor, userId: number): Promise<Challenge[]> {
  return db
    .select()
    .from(challenges)
    .where(and(eq(challenges.creatorId, userId), eq(challenges.status, 'open')))
    .orderBy(asc(challenges.id))
    .for('update');
}

/** Locks a wallet's ledger account and returns its balance: nothing can move it until commit. */
export async function lockWalletBalance(db: Executor, userId: number): Promise<bigint> {
  const [row] = await db
    .select({ balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, userWallet(userId)))
    .for('update');
  return row?.balanceCents ?? 0n;
}

/** The balance of each challenge's escrow, zero for those that never had one. */
/** What each challenge's account named by `accountOf` holds (zero for one that never existed). */
async function challengeAccountBalances(
  db: Executor,
  challengeIds: number[],
  accountOf: (challengeId: number) => string,
): Promise<Map<number, bigint>> {
  const balances = new Map<number, bigint>(challengeIds.map((id) => [id, 0n]));
  if (challengeIds.length === 0) return balances;
  const idByKey = new Map(challengeIds.map((id) => [accountOf(id), id]));
  const rows = await db
    .select({ key: ledgerAccounts.key, balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.key, [...idByKey.keys()]));
  for (const row of rows) {
    const id = idByKey.get(row.key);
    if (id !== undefined) balances.set(id, row.balanceCents);
  }
  return balances;
}

export const escrowBalances = (db: Executor, challengeIds: number[]) =>
  challengeAccountBalances(db, challengeIds, challengeEscrow);

/** What reported results still hold for review (DESIGN §10), by challenge. */
export const reviewBalances = (db: Executor, challengeIds: number[]) =>
  challengeAccountBalances(db, challengeIds, challengeReview);

export interface PostedTransfer {
  id: bigint;
  postings: Array<{ account: string; amountCents: bigint }>;
}

/**
 * The payment that currently pays out a challenge: its newest settlement that no reversal names.
 * A challenge settled at submission has one; one disputed before any money moved has none.
 */
export async function findUnreversedSettlement(
  db: Executor,
  challengeId: number,
): Promise<PostedTransfer | undefined> {
  const reversals = alias(ledgerTransfers, 'reversal');
  const [transfer] = await db
    .select({ id: ledgerTransfers.id })
    .from(ledgerTransfers)
    .leftJoin(reversals, eq(reversals.reversesTransferId, ledgerTransfers.id))
    .where(
      and(
        eq(ledgerTransfers.referenceType, 'challenge'),
        eq(ledgerTransfers.referenceId, String(challengeId)),
        eq(ledgerTransfers.kind, 'settlement'),
        isNull(reversals.id),
      ),
    )
    .orderBy(desc(ledgerTransfers.id))
    .limit(1);
  if (!transfer) return undefined;
  const postings = await db
    .select({ account: ledgerAccounts.key, amountCents: ledgerPostings.amountCents })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .where(eq(ledgerPostings.transferId, transfer.id))
    .orderBy(asc(ledgerAccounts.key));
  return { id: transfer.id, postings };
}
