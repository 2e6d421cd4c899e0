import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts } from '../../db/schema/ledger.ts';
import { userWallet } from './accounts.ts';

/** A user's wallet balance: the ledger's cached balance, zero before the first movement. */
export async function getUserBalanceCents(db: Executor, userId: number): Promise<bigint> {
  const [row] = await db
    .select({ balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, userWallet(userId)))
    .limit(1);
  return row?.balanceCents ?? 0n;
}
