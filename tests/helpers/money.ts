import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '#server/db/client.ts';
import { inTransaction } from '#server/db/transaction.ts';
import { EXTERNAL_CARD, userWallet } from '#server/features/ledger/accounts.ts';
import { getUserBalanceCents } from '#server/features/ledger/balances.ts';
import { createLedger } from '#server/features/ledger/ledger.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';

const ledger = createLedger(createLocalBus());

/** Puts money in a wallet the way a deposit would, straight through the ledger. */
export async function fund(database: DatabaseHandle, userId: number, cents: bigint): Promise<void> {
  await inTransaction(database.db, (uow) =>
    ledger.post(uow, {
      idempotencyKey: `test-fund:${randomUUID()}`,
      kind: 'deposit',
      entries: [
        { account: EXTERNAL_CARD, direction: 'debit', amountCents: cents },
        { account: userWallet(userId), direction: 'credit', amountCents: cents },
      ],
    }),
  );
}

export function balanceOf(database: DatabaseHandle, userId: number): Promise<bigint> {
  return getUserBalanceCents(database.db, userId);
}
