import { and, desc, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts, ledgerPostings, ledgerTransfers } from '../../db/schema/ledger.ts';
import { userWallet } from './accounts.ts';

export interface WalletMovement {
  postingId: bigint;
  createdAt: Date;
  kind: string;
  amountCents: bigint;
  balanceAfterCents: bigint;
  referenceType: string | null;
  referenceId: string | null;
  memo: string | null;
}

/** A user's wallet movements, newest first, `limit` at a time before a posting id. */
export async function listWalletMovements(
  db: Executor,
  userId: number,
  options: { limit: number; beforePostingId?: bigint },
): Promise<WalletMovement[]> {
  const conditions = [eq(ledgerAccounts.key, userWallet(userId))];
  if (options.beforePostingId !== undefined)
    conditions.push(lt(ledgerPostings.id, options.beforePostingId));
  return db
    .select({
      postingId: ledgerPostings.id,
      createdAt: ledgerPostings.createdAt,
      kind: ledgerTransfers.kind,
      amountCents: ledgerPostings.amountCents,
      balanceAfterCents: ledgerPostings.balanceAfterCents,
      referenceType: ledgerTransfers.referenceType,
      referenceId: ledgerTransfers.referenceId,
      memo: ledgerTransfers.memo,
    })
    .from(ledgerPostings)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerPostings.accountId))
    .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerPostings.transferId))
    .where(and(...conditions))
    .orderBy(desc(ledgerPostings.id))
    .limit(options.limit);
}
