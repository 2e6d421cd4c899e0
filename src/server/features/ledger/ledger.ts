import { sql, type SQL } from 'drizzle-orm';
import type { TransferKind } from '#shared/contracts/wallet.ts';
import { queryRows, sqlArray, type Executor } from '../../db/client.ts';
import { brokenCheck, sqlState, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { describeAccount, playerReceivable, userWallet } from './accounts.ts';
import { getUsersBalances, totalCents, type UserBalances } from './balances.ts';
import { lockWalletAndDebt } from './debts.ts';

/** `debit` takes money out of the account, `credit` puts it in. Amounts are positive cents. */
export interface Entry {
  account: string;
  direction: 'debit' | 'credit';
  amountCents: bigint;
}

export interface TransferInput {
  /** Replaying a key returns the first result and moves nothing (docs/money-and-ledger.md). */
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
  /**
   * Each player whose wallet or held credit it moved, with their money as the API shows it
   * after the transfer (empty on a replay): read once, for their sockets and for the caller.
   */
  userBalances: Map<number, UserBalances>;
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

/** SQLSTATEs of `ledger_post` (migration 0009). */
const IDEMPOTENCY_CONFLICT_STATE = 'LG001';
const LEDGER_RULE_STATE = 'LG002';

/** The call of `ledger_post` for a transfer: signed amounts, credits above zero. */
export function ledgerPostCall(input: TransferInput): SQL {
  const descriptions = input.entries.map((entry) => {
    const description = describeAccount(entry.account);
    if (!description) throw new LedgerRuleError(`unknown ledger account ${entry.account}`);
    return description;
  });
  return sql`ledger_post(${input.idempotencyKey}::text, ${input.kind}::text,
    ${input.reference?.type ?? null}::text,
    ${input.reference ? String(input.reference.id) : null}::text,
    ${input.actorUserId ?? null}::integer, ${input.memo ?? null}::text,
    ${input.reversesTransferId?.toString() ?? null}::bigint,
    ${sqlArray(
      input.entries.map((entry) => entry.account),
      'text',
    )},
    ${sqlArray(
      descriptions.map((description) => description.kind),
      'text',
    )},
    ${sqlArray(
      descriptions.map((description) => description.allowNegative),
      'boolean',
    )},
    ${sqlArray(
      descriptions.map((description) => description.userId),
      'integer',
    )},
    ${sqlArray(
      input.entries.map((entry) =>
        (entry.direction === 'credit' ? entry.amountCents : -entry.amountCents).toString(),
      ),
      'bigint',
    )})`;
}

/**
 * The ledger columns of a statement that posts through `ledger_post`: one row per account the
 * transfer touched, with the balance it left; one row with no account on a replay; none, or a
 * null transfer, when the statement posted nothing.
 */
export interface PostedColumns {
  transfer_id: string | null;
  account_key: string | null;
  account_user_id: number | null;
  balance_cents: string | null;
}

/** What a caller's statement selects from its call so that the ledger can read the posting. */
export const POSTED_COLUMNS = sql.raw(`transfer_id::text as transfer_id, account_key,
  account_user_id, balance_cents::text as balance_cents`);

export interface PostedWith<T> {
  /** The statement's first row: what the caller selected besides the posting. */
  outcome: (T & PostedColumns) | undefined;
  /** The transfer it posted, or null when it posted none. */
  transfer: TransferResult | null;
  /**
   * Resolves once the new balances have left on the bus. A caller awaits it together with its
   * own events, which then leave in the same message (the bus sends what one turn of the event
   * loop published together).
   */
  published: Promise<void>;
}

export interface Ledger {
  /**
   * Posts a transfer inside the caller's transaction, so that it commits or rolls back with the
   * caller's other writes (a payout's row, an audit entry). Money it puts in the wallet of a
   * player who owes pays the debt first, in the same transaction (docs/chargebacks.md).
   */
  post(uow: UnitOfWork, input: TransferInput): Promise<TransferResult>;
  /**
   * Runs one statement that changes state and posts at most one transfer through `ledger_post`
   * (a challenge accepted with its stake, a result with its settlement), selecting
   * `POSTED_COLUMNS` beside its own. One statement commits by itself: the new balances reach
   * this instance's subscribers before it returns, and leave for the others when `published`
   * resolves. `kind` is the kind of that transfer, which the metrics count.
   */
  postWith<T>(db: Executor, kind: TransferKind, statement: SQL): Promise<PostedWith<T>>;
}

/** Runs a posting statement, turning the database's refusals into the errors they stand for. */
async function runPosting<T>(db: Executor, statement: SQL): Promise<T[]> {
  try {
    return await queryRows<T>(db, statement);
  } catch (error) {
    const check = brokenCheck(error);
    if (check === 'ledger_accounts_wallet_non_negative')
      throw new AppError('INSUFFICIENT_BALANCE', INSUFFICIENT_BALANCE_MESSAGE);
    if (check === 'ledger_accounts_non_negative')
      throw new LedgerRuleError('the transfer would take an account below zero', { cause: error });
    const state = sqlState(error);
    if (state === IDEMPOTENCY_CONFLICT_STATE) {
      throw new AppError(
        'IDEMPOTENCY_CONFLICT',
        'This operation was already recorded with different details.',
      );
    }
    if (state === LEDGER_RULE_STATE)
      throw new LedgerRuleError('the ledger refused the transfer', { cause: error });
    throw error;
  }
}

/** The transfer in a posting statement's rows, and the players whose money it moved. */
function postedResult(
  rows: PostedColumns[],
): (Omit<TransferResult, 'userBalances'> & { touchedUsers: Set<number> }) | null {
  const balancesAfter = new Map<string, bigint>();
  // Wallets and review accounts carry their player's id; escrows, holds and the house none.
  const touchedUsers = new Set<number>();
  let transferId: bigint | undefined;
  let replayed = false;
  for (const row of rows) {
    if (row.transfer_id === null) continue;
    transferId = BigInt(row.transfer_id);
    if (row.account_key === null || row.balance_cents === null) {
      replayed = true;
      continue;
    }
    const balance = BigInt(row.balance_cents);
    balancesAfter.set(row.account_key, balance);
    if (row.account_user_id !== null) touchedUsers.add(row.account_user_id);
  }
  if (transferId === undefined) return null;
  return { transferId, replayed, balancesAfter, touchedUsers };
}

export function createLedger(bus: EventBus): Ledger {
  /**
   * What the players' sockets are told: each touched player's money as the API shows it. A
   * wallet's new balance is in the transfer's rows, but `balance` also counts every credit the
   * player has under review, so the balances are read once, by the executor that posted.
   */
  const balanceEvent = (userId: number, money: UserBalances) => () =>
    bus.publish({
      type: 'balance',
      userId,
      balanceCents: totalCents(money).toString(),
      availableCents: money.availableCents.toString(),
      underReviewCents: money.underReviewCents.toString(),
    });

  async function postOne(uow: UnitOfWork, input: TransferInput): Promise<TransferResult> {
    validate(input);
    const rows = await runPosting<PostedColumns>(
      uow.tx,
      sql`select ${POSTED_COLUMNS} from ${ledgerPostCall(input)}`,
    );
    const posted = postedResult(rows);
    if (!posted) throw new Error(`ledger_post answered nothing for ${input.idempotencyKey}`);
    const { touchedUsers, ...result } = posted;
    return { ...result, userBalances: await getUsersBalances(uow.tx, [...touchedUsers]) };
  }

  /**
   * Pays what the player owes (docs/chargebacks.md) from their wallet, as far as it reaches, in
   * the caller's transaction: null when they owe nothing or have nothing.
   */
  async function repayDebt(
    uow: UnitOfWork,
    userId: number,
    idempotencyKey: string,
  ): Promise<TransferResult | null> {
    const { walletCents, debtCents } = await lockWalletAndDebt(uow.tx, userId);
    const amountCents = walletCents < debtCents ? walletCents : debtCents;
    if (amountCents <= 0n) return null;
    return postOne(uow, {
      idempotencyKey,
      kind: 'debt_repayment',
      reference: { type: 'user', id: userId },
      entries: [
        { account: userWallet(userId), direction: 'debit', amountCents },
        { account: playerReceivable(userId), direction: 'credit', amountCents },
      ],
    });
  }

  /** The players whose wallet `input` credited while they owe: their money pays the debt first. */
  const creditedDebtors = (input: TransferInput, result: TransferResult): number[] =>
    [...result.userBalances]
      .filter(
        ([userId, money]) =>
          money.debtCents > 0n &&
          money.availableCents > 0n &&
          input.entries.some(
            (entry) => entry.direction === 'credit' && entry.account === userWallet(userId),
          ),
      )
      .map(([userId]) => userId);

  return {
    async post(uow, input) {
      let result = await postOne(uow, input);
      const debtors =
        result.replayed || input.kind === 'debt_repayment' ? [] : creditedDebtors(input, result);
      if (debtors.length > 0) {
        // The answer is the money after the repayments: what the caller and the sockets show.
        const balancesAfter = new Map(result.balancesAfter);
        for (const userId of debtors) {
          const repaid = await repayDebt(
            uow,
            userId,
            `debt-repayment:${result.transferId}:${userId}`,
          );
          for (const [key, balance] of repaid?.balancesAfter ?? []) balancesAfter.set(key, balance);
        }
        const userBalances = await getUsersBalances(uow.tx, [...result.userBalances.keys()]);
        result = { ...result, balancesAfter, userBalances };
      }
      for (const [userId, money] of result.userBalances) {
        uow.afterCommit(balanceEvent(userId, money));
      }
      return result;
    },

    async postWith<T>(db: Executor, _kind: TransferKind, statement: SQL) {
      const rows = await runPosting<T & PostedColumns>(db, statement);
      const posted = postedResult(rows);
      if (!posted) return { outcome: rows[0], transfer: null, published: Promise.resolve() };
      const { touchedUsers, ...result } = posted;
      const userBalances = await getUsersBalances(db, [...touchedUsers]);
      // Committed with the statement: the events can leave now. The caller's answer waits until
      // they have left, which paces a player's next request behind them (decision 0010).
      const published = Promise.all(
        [...userBalances].map(([userId, money]) => balanceEvent(userId, money)()),
      ).then(() => undefined);
      return { outcome: rows[0], transfer: { ...result, userBalances }, published };
    },
  };
}
