import type { Transaction } from '#shared/contracts/wallet.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { WalletMovement } from './transactions.ts';

/** A wallet movement as the player sees it: signed dollars, and what it was for. */
export function toTransactionView(row: WalletMovement): Transaction {
  return {
    id: Number(row.postingId),
    createdAt: row.createdAt.toISOString(),
    kind: row.kind,
    amount: centsToDollarNumber(row.amountCents),
    balanceAfter: centsToDollarNumber(row.balanceAfterCents),
    reference:
      row.referenceType && row.referenceId
        ? { type: row.referenceType, id: row.referenceId }
        : null,
    memo: row.memo,
  };
}
