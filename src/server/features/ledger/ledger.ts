import { hash } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { TransferKind } from '#shared/contracts/wallet.ts';
import type { Executor } from '../../db/client.ts';
import {
  ledgerAccounts,
  ledgerPostings,
  ledgerTransfers,
  type LedgerTransfer,
} from '../../db/schema/ledger.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { describeAccount } from './accounts.ts';

/** `debit` takes money out of the account, `credit` puts it in. Amounts are positive cents. */
export interface Entry {
  account: string;
  direction: 'debit' | 'credit';
  amountCents: bigint;
}

export interface TransferInput {
  /** Replaying a key returns the first result and moves nothing (DESIGN §2). */
  idempotencyKey: string;
  kind: TransferKind;
  entries: Entry[];
  reference?: { type: string; id: string | number };
  actorUserId?: number;
  memo?: string;
  reversesTransferId?: bigint;
}

export interface TransferResult {
  transferId: bigint;
  replayed: boolean;
  /** Balance after the transfer of each account it touched (empty on a replay). */
  balancesAfter: Map<string, bigint>;
}

export const INSUFFICIENT_BALANCE_MESSAGE = 'Insufficient balance';

/** A transfer that can never be right, whatever the data: the calling code is wrong. */
export class LedgerRuleError extends Error {
  override name = 'LedgerRuleError';
}

function validate(input: TransferInput): void {
  if (input.idempotencyKey.length === 0)
    throw new LedgerRuleError('an idempotency key is required');
  if (input.entries.length < 2) throw new LedgerRuleError('a transfer needs at least two entries');
  const seen = new Set<string>();
  let debits = 0n;
  let credits = 0n;
  for (const entry of input.entries) {
    if (entry.amountCents <= 0n) {
      throw new LedgerRuleError(
        `entry amounts must be positive, got ${entry.amountCents} on ${entry.account}`,
      );
    }
    if (!describeAccount(entry.account))
      throw new LedgerRuleError(`unknown ledger account ${entry.account}`);
    if (seen.has(entry.account)) {
      throw new LedgerRuleError(`account ${entry.account} appears more than once in one transfer`);
    }
    seen.add(entry.account);
    if (entry.direction === 'debit') debits += entry.amountCents;
    else credits += entry.amountCents;
  }
  if (debits !== credits) {
    throw new LedgerRuleError(`unbalanced transfer: debits ${debits} ≠ credits ${credits}`);
  }
}

function payloadHash(input: TransferInput): string {
  const canonical = JSON.stringify({
    kind: input.kind,
    reference: input.reference ? [input.reference.type, String(input.reference.id)] : null,
    entries: [...input.entries]
      .sort((a, b) => (a.account < b.account ? -1 : 1))
      .map((entry) => [entry.account, entry.direction, entry.amountCents.toString()]),
  });
  return hash('sha256', canonical, 'hex');
}

async function findTransfer(
  db: Executor,
  idempotencyKey: string,
): Promise<LedgerTransfer | undefined> {
  const [row] = await db
    .select()
    .from(ledgerTransfers)
    .where(eq(ledgerTransfers.idempotencyKey, idempotencyKey))
    .limit(1);
  return row;
}

function replayOf(existing: LedgerTransfer, hash: string): TransferResult {
  if (existing.payloadHash !== hash) {
    throw new AppError(
      'IDEMPOTENCY_CONFLICT',
      'This operation was already recorded with different details.',
    );
  }
  return { transferId: existing.id, replayed: true, balancesAfter: new Map() };
}

export interface Ledger {
  /**
   * Posts a transfer inside the caller's transaction, so that it commits or rolls back with the
   * caller's other writes (a challenge's status, a payout's row). Touched accounts are locked in
   * key order, which keeps concurrent transfers from deadlocking one another.
   */
  post(uow: UnitOfWork, input: TransferInput): Promise<TransferResult>;
}

/** The accounts with these keys (sorted), locked in key order: no deadlocks between transfers. */
function lockAccounts(tx: Executor, sortedKeys: string[]) {
  return tx
    .select()
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.key, sortedKeys))
    .orderBy(ledgerAccounts.key)
    .for('update');
}

export function createLedger(bus: EventBus): Ledger {
  return {
    async post(uow, input) {
      validate(input);
      const { tx } = uow;
      const hash = payloadHash(input);

      // Insert first: a new key, nearly always the case, then costs one statement. A key that
      // exists (a replay, or a concurrent duplicate that waited here for the first to commit)
      // inserts nothing and answers with the first transfer.
      const [inserted] = await tx
        .insert(ledgerTransfers)
        .values({
          idempotencyKey: input.idempotencyKey,
          kind: input.kind,
          referenceType: input.reference?.type ?? null,
          referenceId: input.reference ? String(input.reference.id) : null,
          payloadHash: hash,
          actorUserId: input.actorUserId ?? null,
          memo: input.memo ?? null,
          reversesTransferId: input.reversesTransferId ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: ledgerTransfers.id });
      if (!inserted) {
        const existing = await findTransfer(tx, input.idempotencyKey);
        if (!existing)
          throw new Error(`transfer ${input.idempotencyKey} vanished after a conflict`);
        return replayOf(existing, hash);
      }

      // Lock the accounts that exist; create the missing ones (a new escrow, hold or wallet)
      // and lock again. Nothing waits on another transaction after the first lock except the
      // insert of a brand-new account, and a transaction that inserted an account holds every
      // other lock it needs already, so this order cannot deadlock either.
      const keys = input.entries.map((entry) => entry.account).sort();
      let accounts = await lockAccounts(tx, keys);
      if (accounts.length < keys.length) {
        const known = new Set(accounts.map((account) => account.key));
        const missing = keys.filter((key) => !known.has(key));
        // Rows this transaction inserts are its own until it commits: as good as locked.
        const created = await tx
          .insert(ledgerAccounts)
          .values(
            missing.map((key) => {
              const description = describeAccount(key);
              if (!description) throw new LedgerRuleError(`unknown ledger account ${key}`);
              return { key, ...description };
            }),
          )
          .onConflictDoNothing()
          .returning();
        // Another transaction created one of them first: lock them all again, in key order.
        accounts =
          created.length === missing.length
            ? [...accounts, ...created]
            : await lockAccounts(tx, keys);
      }
      const byKey = new Map(accounts.map((account) => [account.key, account]));

      const balancesAfter = new Map<string, bigint>();
      const postings = input.entries.map((entry) => {
        const account = byKey.get(entry.account);
        if (!account) throw new Error(`ledger account ${entry.account} was not created`);
        const signed = entry.direction === 'credit' ? entry.amountCents : -entry.amountCents;
        const after = account.balanceCents + signed;
        if (after < 0n && !account.allowNegative) {
          if (account.kind === 'user')
            throw new AppError('INSUFFICIENT_BALANCE', INSUFFICIENT_BALANCE_MESSAGE);
          throw new LedgerRuleError(`${account.key} would go below zero (${after})`);
        }
        balancesAfter.set(account.key, after);
        return { accountId: account.id, amountCents: signed, balanceAfterCents: after };
      });

      // The postings and the new cached balances in one statement: the rows are locked and the
      // values computed above, so one round trip does what one statement per account did.
      await tx.execute(sql`
        with posted as (
          insert into ${ledgerPostings}
            (transfer_id, account_id, amount_cents, balance_after_cents)
          values ${sql.join(
            postings.map(
              (posting) =>
                sql`(${String(inserted.id)}::bigint, ${String(posting.accountId)}::bigint, ${String(posting.amountCents)}::bigint, ${String(posting.balanceAfterCents)}::bigint)`,
            ),
            sql`, `,
          )}
        )
        update ${ledgerAccounts} set balance_cents = balances.after_cents
        from (values ${sql.join(
          postings.map(
            (posting) =>
              sql`(${String(posting.accountId)}::bigint, ${String(posting.balanceAfterCents)}::bigint)`,
          ),
          sql`, `,
        )}) as balances (account_id, after_cents)
        where ${ledgerAccounts.id} = balances.account_id`);

      for (const [key, balance] of balancesAfter) {
        const userId = byKey.get(key)?.userId;
        if (userId == null) continue;
        uow.afterCommit(() =>
          bus.publish({ type: 'balance', userId, balanceCents: balance.toString() }),
        );
      }
      return { transferId: inserted.id, replayed: false, balancesAfter };
    },
  };
}
