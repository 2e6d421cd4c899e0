import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { queryRows, sqlArray, type Executor } from '../../db/client.ts';
import { debtCentsOf } from './debts.ts';

/**
 * A player's money as the API shows it (docs/fair-play.md): `available` is the wallet, which
 * staking and payouts may use; `underReview` is what reported results hold for them until their
 * opponents have had their say. The SPEC's `balance` is the two together.
 */
export interface UserBalances {
  availableCents: bigint;
  underReviewCents: bigint;
  /**
   * What the player owes the house after a chargeback (docs/chargebacks.md), above zero; not part
   * of `balance`, which stays the money they have.
   */
  debtCents: bigint;
}

export const ZERO_BALANCES: UserBalances = {
  availableCents: 0n,
  underReviewCents: 0n,
  debtCents: 0n,
};

export const totalCents = (balances: UserBalances): bigint =>
  balances.availableCents + balances.underReviewCents;

/** The player's wallet, found by its key: their `available` money. */
const walletSql = (userId: SQL | AnyColumn): SQL =>
  sql`coalesce((select w.balance_cents from ledger_accounts w where w.key = 'user:' || ${userId}), 0)`;

/**
 * What reported results hold for the player (`underReview`), from the few review accounts that
 * hold money (a partial index), whatever number of results the player ever won.
 */
const underReviewSql = (userId: SQL | AnyColumn): SQL =>
  sql`coalesce((select sum(r.balance_cents) from ledger_accounts r
    where r.user_id = ${userId} and r.kind = 'review' and r.balance_cents <> 0), 0)`;

/** What the player owes: their receivable's balance below zero, found by its key. */
const debtSql = (userId: SQL | AnyColumn): SQL => debtCentsOf(sql`${userId}`);

/** The SQL of one player's balances, for a statement that selects users. */
export const balanceColumns = (userId: SQL): SQL => sql`
  ${walletSql(userId)}::text as available_cents,
  ${underReviewSql(userId)}::text as under_review_cents,
  ${debtSql(userId)}::text as debt_cents`;

/**
 * The SPEC's `balance` of the player whose id is `userId`, for a statement that selects users:
 * the wallet and what is under review, the one place the two are added in SQL (`totalCents`
 * adds them in code).
 */
export const balanceCentsOf = (userId: SQL | AnyColumn): SQL<bigint> =>
  sql<bigint>`${walletSql(userId)} + ${underReviewSql(userId)}`.mapWith((value: unknown) =>
    BigInt(String(value)),
  );

interface BalanceRow {
  user_id: number;
  available_cents: string;
  under_review_cents: string;
  debt_cents: string;
}

/** Several players' balances in one statement; a player with no ledger account has zero. */
export async function getUsersBalances(
  db: Executor,
  userIds: readonly number[],
): Promise<Map<number, UserBalances>> {
  const balances = new Map<number, UserBalances>();
  if (userIds.length === 0) return balances;
  const rows = await queryRows<BalanceRow>(
    db,
    sql`select u.id as user_id, ${balanceColumns(sql`u.id`)}
      from unnest(${sqlArray([...userIds], 'integer')}) as u(id)`,
  );
  for (const row of rows) {
    balances.set(Number(row.user_id), {
      availableCents: BigInt(row.available_cents),
      underReviewCents: BigInt(row.under_review_cents),
      debtCents: BigInt(row.debt_cents),
    });
  }
  return balances;
}

export async function getUserBalances(db: Executor, userId: number): Promise<UserBalances> {
  return (await getUsersBalances(db, [userId])).get(userId) ?? ZERO_BALANCES;
}

/**
 * A player's wallet alone (their `available` money): the ledger's cached balance, zero before any.
 */
export async function getUserBalanceCents(db: Executor, userId: number): Promise<bigint> {
  return (await getUserBalances(db, userId)).availableCents;
}
