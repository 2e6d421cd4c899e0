import { sql } from 'drizzle-orm';
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
