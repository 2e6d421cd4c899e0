import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { ledgerAccounts } from '../../db/schema/ledger.ts';
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

/** The players who owe something and have money in their wallet: a repayment is due. */
export async function debtorsWithMoney(db: Executor, limit: number): Promise<number[]> {
  const rows = await db
    .select({ userId: ledgerAccounts.userId })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, 'receivable'),
        lt(ledgerAccounts.balanceCents, 0n),
        sql`exists (select 1 from ledger_accounts w
          where w.key = 'user:' || ${ledgerAccounts.userId} and w.balance_cents > 0)`,
      ),
    )
    .limit(limit);
  return rows.flatMap((row) => (row.userId === null ? [] : [row.userId]));
}
