import { hash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { TransferKind } from '#shared/contracts/wallet.ts';
import { queryRows, type Executor } from '../../db/client.ts';
import { CHANGED, guardedCtes, type GuardedWrite } from '../../db/guarded-write.ts';
import {
  ledgerAccounts,
  ledgerPostings,
  ledgerTransfers,
  type LedgerTransfer,
} from '../../db/schema/ledger.ts';
import { brokenCheck, type UnitOfWork } from '../../db/transaction.ts';
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
   * caller's other writes (a payout's row, an audit entry).
   */
  post(uow: UnitOfWork, input: TransferInput): Promise<TransferResult>;
  /**
   * Posts a transfer in one statement with a state change (a challenge accepted, a result
   * recorded): the money moves only if the change changed a row, and both commit together.
   * Null when the change found nothing to change; nothing was written then.
   */
  postWith(db: Executor, write: GuardedWrite, input: TransferInput): Promise<TransferResult | null>;
}

/** What the posting statement answers: one row per touched account, none on a replay. */
interface PostedRow {
  transfer_id: string | null;
  key: string | null;
  user_id: number | null;
  balance_cents: string | null;
}

/**
 * The transfer as common table expressions, one statement with no locking read before it:
 *
 * - `transfer` records the transfer, or nothing when its idempotency key exists (a replay, or a
 *   concurrent duplicate, which waits here for the first to commit). With `gate`, it also
 *   records nothing unless the CTE named `gate` returned a row.
 * - `account` adds each entry to its account's cached balance, creating an account on its first
 *   entry (a new escrow or hold). It takes the rows' locks in key order, as every transfer does,
 *   so transfers cannot deadlock one another. An account's CHECK refuses a balance below zero,
 *   which fails the whole statement. PostgreSQL checks the row an INSERT proposes before it
 *   finds the conflict, so an account that exists is proposed with a zero balance and the entry
 *   is added on the conflict; one that does not is proposed with the entry, and refused if that
 *   is a debit it cannot cover. (One created by a transaction that committed after this
 *   statement began counts as missing: a debit from it is refused as if it had come first.)
 * - `posting` records each entry with the balance it left.
 */
function transferCtes(input: TransferInput, hash: string, gate?: SQL): SQL {
  const entries = input.entries.map((entry) => {
    const description = describeAccount(entry.account);
    if (!description) throw new LedgerRuleError(`unknown ledger account ${entry.account}`);
    const signed = entry.direction === 'credit' ? entry.amountCents : -entry.amountCents;
    return sql`(${entry.account}::text, ${description.kind}::text, ${description.allowNegative}::boolean, ${description.userId}::integer, ${signed.toString()}::bigint)`;
  });
  return sql`transfer as (
      insert into ${ledgerTransfers}
        (idempotency_key, kind, reference_type, reference_id, payload_hash, actor_user_id, memo,
         reverses_transfer_id)
      select ${input.idempotencyKey}::text, ${input.kind}::text,
        ${input.reference?.type ?? null}::text,
        ${input.reference ? String(input.reference.id) : null}::text, ${hash}::text,
        ${input.actorUserId ?? null}::integer, ${input.memo ?? null}::text,
        ${input.reversesTransferId?.toString() ?? null}::bigint
      ${gate ? sql`where exists (select 1 from ${gate})` : sql``}
      on conflict (idempotency_key) do nothing
      returning id
    ),
    entry (key, kind, allow_negative, user_id, amount_cents) as (
      values ${sql.join(entries, sql`, `)}
    ),
    account as (
      insert into ${ledgerAccounts} (key, kind, allow_negative, user_id, balance_cents)
      select key, kind, allow_negative, user_id,
        case when exists (select 1 from ${ledgerAccounts} known where known.key = entry.key)
          then 0 else amount_cents end
      from entry
      where exists (select 1 from transfer)
      order by key
      on conflict (key) do update
        set balance_cents = ${ledgerAccounts}.balance_cents
          + (select amount_cents from entry where entry.key = excluded.key)
      returning id, key, user_id, balance_cents
    ),
    posting as (
      insert into ${ledgerPostings} (transfer_id, account_id, amount_cents, balance_after_cents)
      select transfer.id, account.id, entry.amount_cents, account.balance_cents
      from transfer cross join account join entry on entry.key = account.key
    )`;
}

const POSTED_COLUMNS = sql`transfer.id::text as transfer_id, account.key, account.user_id,
  account.balance_cents::text as balance_cents`;

/** Runs a posting statement, turning a broken balance CHECK into the error it stands for. */
async function runPosting<T>(db: Executor, statement: SQL): Promise<T[]> {
  try {
    return await queryRows<T>(db, statement);
  } catch (error) {
    const check = brokenCheck(error);
    if (check === 'ledger_accounts_wallet_non_negative')
      throw new AppError('INSUFFICIENT_BALANCE', INSUFFICIENT_BALANCE_MESSAGE);
    if (check === 'ledger_accounts_non_negative')
      throw new LedgerRuleError('the transfer would take an account below zero', { cause: error });
    throw error;
  }
}

function postedResult(rows: PostedRow[]): TransferResult & { touchedUsers: Map<number, bigint> } {
  const balancesAfter = new Map<string, bigint>();
  const touchedUsers = new Map<number, bigint>();
  let transferId: bigint | undefined;
  for (const row of rows) {
    if (row.transfer_id === null || row.key === null || row.balance_cents === null) continue;
    transferId = BigInt(row.transfer_id);
    const balance = BigInt(row.balance_cents);
    balancesAfter.set(row.key, balance);
    if (row.user_id !== null) touchedUsers.set(row.user_id, balance);
  }
  if (transferId === undefined) throw new Error('the posting statement returned no transfer');
  return { transferId, replayed: false, balancesAfter, touchedUsers };
}

async function replay(db: Executor, input: TransferInput, hash: string): Promise<TransferResult> {
  const existing = await findTransfer(db, input.idempotencyKey);
  if (!existing) throw new Error(`transfer ${input.idempotencyKey} vanished after a conflict`);
  return replayOf(existing, hash);
}

export function createLedger(bus: EventBus): Ledger {
  const balanceEvent = (userId: number, balance: bigint) => () =>
    bus.publish({ type: 'balance', userId, balanceCents: balance.toString() });

  return {
    async post(uow, input) {
      validate(input);
      const hash = payloadHash(input);
      const rows = await runPosting<PostedRow>(
        uow.tx,
        sql`with ${transferCtes(input, hash)}
          select ${POSTED_COLUMNS} from transfer cross join account`,
      );
      if (rows.length === 0) return replay(uow.tx, input, hash);
      const { touchedUsers, ...result } = postedResult(rows);
      for (const [userId, balance] of touchedUsers) uow.afterCommit(balanceEvent(userId, balance));
      return result;
    },

    async postWith(db, write, input) {
      validate(input);
      const hash = payloadHash(input);
      // One row whatever happened: whether the change changed anything, then the accounts.
      const rows = await runPosting<PostedRow & { changed: boolean }>(
        db,
        sql`with ${guardedCtes(write)}, ${transferCtes(input, hash, CHANGED)}
          select exists (select 1 from ${CHANGED}) as changed, ${POSTED_COLUMNS}
          from (values (1)) as one (x)
          left join (transfer cross join account) on true`,
      );
      if (rows[0]?.changed !== true) return null;
      if (rows[0].transfer_id === null) return replay(db, input, hash);
      const { touchedUsers, ...result } = postedResult(rows);
      // Committed with the statement: the events can leave now.
      await Promise.allSettled(
        [...touchedUsers].map(([userId, balance]) => balanceEvent(userId, balance)()),
      );
      return result;
    },
  };
}
