import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client.ts';
import { playerReceivable, userWallet } from './accounts.ts';

/**
 * A player's wallet and debt, locked in that order until the transaction ends. Everything that
 * moves a receivable (a chargeback, its reversal, a repayment) locks the wallet first, so two of
 * them never wait for each other in opposite orders (`ledger_post` alone would take the
 * receivable first: its key sorts before the wallet's).
 */
export async function lockWalletAndDebt(
  db: Executor,
  userId: number,
): Promise<{ walletCents: bigint; debtCents: bigint }> {
  const rows = await queryRows<{ key: string; balance: string }>(
    db,
    sql`select key, balance_cents::text as balance from ledger_accounts
      where key in (${userWallet(userId)}, ${playerReceivable(userId)})
      order by kind = 'receivable', key for update`,
  );
  let walletCents = 0n;
  let debtCents = 0n;
  for (const row of rows) {
    if (row.key === userWallet(userId)) walletCents = BigInt(row.balance);
    else debtCents = -BigInt(row.balance);
  }
  return { walletCents, debtCents };
}

/**
 * What players owe the house now (docs/chargebacks.md), from the few receivables that hold a debt
 * (a partial index): the overview's figure.
 */
export async function outstandingDebts(
  db: Executor,
): Promise<{ totalCents: bigint; players: number }> {
  const [row] = await queryRows<{ total: string; players: number }>(
    db,
    sql`select coalesce(-sum(balance_cents), 0)::text as total, count(*)::int as players
      from ledger_accounts where kind = 'receivable' and balance_cents <> 0`,
  );
  return { totalCents: BigInt(row?.total ?? '0'), players: Number(row?.players ?? 0) };
}

/** What the player whose id is `userId` owes, as SQL for a statement that selects players. */
export const debtCentsOf = (userId: SQL): SQL =>
  sql`coalesce((select -owed.balance_cents from ledger_accounts owed
    where owed.key = 'receivable:user:' || ${userId}), 0)`;
