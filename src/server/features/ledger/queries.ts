import { and, asc, desc, eq, gte, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts, ledgerPostings, ledgerTransfers } from '../../db/schema/ledger.ts';
import { HOUSE_UNCLAIMED, challengeEscrow, challengeReview, userWallet } from './accounts.ts';

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

/** What reported results still hold for review (docs/fair-play.md), by challenge. */
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
  return { id: transfer.id, postings: await postingsOf(db, transfer.id) };
}

/** A transfer's postings by account key: negative for an account it took from. */
export function postingsOf(db: Executor, transferId: bigint): Promise<PostedTransfer['postings']> {
  return db
    .select({ account: ledgerAccounts.key, amountCents: ledgerPostings.amountCents })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .where(eq(ledgerPostings.transferId, transferId))
    .orderBy(asc(ledgerAccounts.key));
}

/**
 * What `house:unclaimed` still holds for a closed account's player: what the closing moved there
 * (`unclaimed:user:{id}`), less what chargebacks of their card payments (`paymentIds`) took from
 * it since, plus what won disputes and refused card refunds of those payments put there
 * (docs/chargebacks.md).
 */
export async function unclaimedHeldFor(
  db: Executor,
  userId: number,
  paymentIds: number[],
): Promise<bigint> {
  const [row] = await db
    .select({ held: sql<string>`coalesce(sum(${ledgerPostings.amountCents}), 0)::text` })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerPostings.transferId))
    .where(
      and(
        eq(ledgerAccounts.key, HOUSE_UNCLAIMED),
        or(
          eq(ledgerTransfers.idempotencyKey, `unclaimed:user:${userId}`),
          and(
            inArray(ledgerTransfers.kind, [
              'chargeback',
              'chargeback_reversal',
              'card_refund_release',
            ]),
            eq(ledgerTransfers.referenceType, 'payment'),
            inArray(ledgerTransfers.referenceId, paymentIds.map(String)),
          ),
        ),
      ),
    );
  return BigInt(row?.held ?? '0');
}

/**
 * What the transfer `transferId` (a column of the caller's statement) put into the wallet of
 * `userId`, as SQL: a deposit's credit, which may be less than the payment asked for.
 */
export const walletCreditOf = (transferId: SQL, userId: number): SQL =>
  sql`(select lp.amount_cents from ledger_postings lp
    join ledger_accounts la on la.id = lp.account_id
    where lp.transfer_id = ${transferId} and la.key = ${userWallet(userId)})`;

/**
 * What the player staked from their wallet since `since` (challenges and tournament entries), less
 * the stakes given back (a cancelled challenge, a withdrawn entry): the play a disputed payment's
 * evidence reports, and what plays a card deposit through (docs/chargebacks.md).
 */
export async function stakedSince(
  db: Executor,
  userId: number,
  since: Date,
): Promise<{ stakes: number; stakedCents: bigint }> {
  const [row] = await db
    .select({
      stakes: sql<number>`(count(*) filter (where ${ledgerTransfers.kind} = 'stake'))::int`,
      stakedCents: sql<string>`greatest(coalesce(-sum(${ledgerPostings.amountCents}), 0), 0)::text`,
    })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerPostings.transferId))
    .where(
      and(
        eq(ledgerAccounts.key, userWallet(userId)),
        inArray(ledgerTransfers.kind, ['stake', 'refund']),
        gte(ledgerTransfers.createdAt, since),
      ),
    );
  return { stakes: row?.stakes ?? 0, stakedCents: BigInt(row?.stakedCents ?? '0') };
}
