import { eq, sql } from 'drizzle-orm';
import {
  LIMIT_KEYS,
  LIMIT_RAISE_DELAY_MS,
  LIMIT_WINDOW_MS,
  RESPONSIBLE_GAMING_MESSAGES,
  type LimitKey,
  type SetLimitsBody,
} from '#shared/contracts/responsible-gaming.ts';
import type { Cents } from '#shared/money.ts';
import { queryRows, type Executor } from '../../db/client.ts';
import {
  depositLimits,
  responsibleGamingChanges,
  type DepositLimit,
} from '../../db/schema/responsible-gaming.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { walletCreditOf } from '../ledger/index.ts';

/** The first key of the advisory lock that serialises one player's deposits and limit changes. */
const DEPOSIT_LOCK_CLASS = 0x4450;

/**
 * Takes the player's deposit lock for the rest of the transaction: a new deposit's limit check
 * and its insert, a change of limits and the start of a break each take it first, so two
 * deposits racing under one limit are judged one after the other. Every caller takes it before
 * any row lock (the start of a break locks the user row after it), which keeps it out of any
 * deadlock: keep it first.
 */
export async function lockPlayerDeposits(tx: Executor, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${DEPOSIT_LOCK_CLASS}, ${userId})`);
}

/** A limit as it stands at a moment: the one in force, and a raise or removal still waiting. */
export interface LimitState {
  limitCents: Cents | null;
  pending: { cents: Cents | null; at: Date } | null;
}

const NO_LIMIT: LimitState = { limitCents: null, pending: null };

/** A stored row at `now`: a waiting change whose time has come is the limit in force. */
export function limitAt(row: DepositLimit | undefined, now: Date): LimitState {
  if (!row) return NO_LIMIT;
  if (row.pendingAt === null) return { limitCents: row.limitCents, pending: null };
  if (row.pendingAt <= now) return { limitCents: row.pendingCents, pending: null };
  return { limitCents: row.limitCents, pending: { cents: row.pendingCents, at: row.pendingAt } };
}

export async function readLimits(
  db: Executor,
  userId: number,
  now: Date,
): Promise<Record<LimitKey, LimitState>> {
  const rows = await db.select().from(depositLimits).where(eq(depositLimits.userId, userId));
  const byKey = new Map(rows.map((row) => [row.period, row]));
  return {
    daily: limitAt(byKey.get('daily'), now),
    weekly: limitAt(byKey.get('weekly'), now),
    monthly: limitAt(byKey.get('monthly'), now),
  };
}

/**
 * What the player's deposits of each rolling window total at `now`, in cents
 * (docs/responsible-play.md). Credited deposits count by what the ledger credited to the wallet, at
 * the moment it did; payments not yet paid hold the amount asked, from their request, until they
 * end: a crypto payment (or a partly paid one) when the provider ends it, a card payment at a
 * decline or when the reconciliation worker cancels it after a checkout's time
 * (`CARD_CHECKOUT_MS`). Failed and expired ones count nothing. Counting the unpaid ones is what
 * keeps two deposits started side by side from both passing a limit, and a payment kept open from
 * being paid outside them later.
 */
export async function depositsInWindows(
  db: Executor,
  userId: number,
  now: Date,
): Promise<Record<LimitKey, Cents>> {
  const since = (key: LimitKey) => new Date(now.getTime() - LIMIT_WINDOW_MS[key]).toISOString();
  const [row] = await queryRows<{ daily: string; weekly: string; monthly: string }>(
    db,
    sql`
    select
      coalesce(sum(amount) filter (where counted_at > ${since('daily')}::timestamptz), 0)::text
        as daily,
      coalesce(sum(amount) filter (where counted_at > ${since('weekly')}::timestamptz), 0)::text
        as weekly,
      coalesce(sum(amount), 0)::text as monthly
    from (
      select
        case when p.ledger_transfer_id is not null then coalesce(p.credited_at, p.created_at)
          else p.created_at end as counted_at,
        case
          when p.ledger_transfer_id is not null
            then ${walletCreditOf(sql`p.ledger_transfer_id`, userId)}
          when p.status in ('pending', 'partially_paid') then p.requested_amount_cents
          else 0
        end as amount
      from payments p
      where p.user_id = ${userId}
    ) counted
    where counted_at > ${since('monthly')}::timestamptz
      and counted_at <= ${now.toISOString()}::timestamptz`,
  );
  if (!row) throw new Error('an aggregate answered no row');
  return { daily: BigInt(row.daily), weekly: BigInt(row.weekly), monthly: BigInt(row.monthly) };
}

/** What each limit leaves to deposit now; absent for a period without a limit. */
export function leftToDeposit(
  limits: Record<LimitKey, LimitState>,
  used: Record<LimitKey, Cents>,
): Partial<Record<LimitKey, Cents>> {
  const left: Partial<Record<LimitKey, Cents>> = {};
  for (const key of LIMIT_KEYS) {
    const limit = limits[key].limitCents;
    if (limit !== null) left[key] = limit > used[key] ? limit - used[key] : 0n;
  }
  return left;
}

/**
 * Refuses a deposit of `amountCents` that would take any window past its limit, naming the
 * tightest one and what it leaves ("$50.00 left today"). The caller holds the deposit lock when
 * the answer must still be true at its insert.
 */
export async function requireWithinDepositLimits(
  db: Executor,
  userId: number,
  amountCents: Cents,
  now: Date,
): Promise<void> {
  const limits = await readLimits(db, userId, now);
  if (LIMIT_KEYS.every((key) => limits[key].limitCents === null)) return;
  const left = leftToDeposit(limits, await depositsInWindows(db, userId, now));
  let tightest: { key: LimitKey; left: Cents } | null = null;
  for (const key of LIMIT_KEYS) {
    const value = left[key];
    if (value === undefined || value >= amountCents) continue;
    if (tightest === null || value < tightest.left) tightest = { key, left: value };
  }
  if (tightest) {
    const message = RESPONSIBLE_GAMING_MESSAGES.depositOverLimit(tightest.key, tightest.left);
    throw new AppError('DEPOSIT_LIMIT_EXCEEDED', message, { fields: { amount: message } });
  }
}

/** One limit's change as applied: what the history keeps. */
export interface LimitChange {
  key: LimitKey;
  /** The new limit; null: none. */
  cents: Cents | null;
  /** Now for a new or lower limit, 24 hours on for a raise or a removal. */
  effectiveAt: Date;
}

/** Whether `next` is no looser than `current` (null is no limit, the loosest of all). */
function isNoLooser(next: Cents | null, current: Cents | null): boolean {
  if (current === null) return true;
  return next !== null && next <= current;
}

/**
 * Changes the player's limits (docs/responsible-play.md): a new limit, a lower one or the same one
 * applies at once and drops a waiting raise (the same one with nothing waiting changes nothing); a
 * raise or a removal waits 24 hours, replacing any raise that was waiting. The caller holds the
 * deposit lock, so no deposit is judged half-way through.
 */
export async function changeLimits(
  uow: UnitOfWork,
  userId: number,
  body: SetLimitsBody,
  now: Date,
): Promise<LimitChange[]> {
  const current = await readLimits(uow.tx, userId, now);
  const changes: LimitChange[] = [];
  for (const key of LIMIT_KEYS) {
    const next = body[key];
    if (next === undefined) continue;
    const { limitCents, pending } = current[key];
    // Asking for the limit already in force with nothing waiting, or for the very change that
    // is waiting, changes nothing (a waiting raise keeps its time).
    if (next === limitCents && pending === null) continue;
    if (pending !== null && next === pending.cents) continue;
    const atOnce = isNoLooser(next, limitCents);
    const values = atOnce
      ? { limitCents: next, pendingCents: null, pendingAt: null }
      : {
          limitCents,
          pendingCents: next,
          pendingAt: new Date(now.getTime() + LIMIT_RAISE_DELAY_MS),
        };
    await uow.tx
      .insert(depositLimits)
      .values({ userId, period: key, ...values, updatedAt: now })
      .onConflictDoUpdate({
        target: [depositLimits.userId, depositLimits.period],
        set: { ...values, updatedAt: now },
      });
    const change: LimitChange = {
      key,
      cents: next,
      effectiveAt: atOnce ? now : (values.pendingAt ?? now),
    };
    await uow.tx.insert(responsibleGamingChanges).values({
      userId,
      kind: atOnce ? 'limit_set' : 'limit_raise_requested',
      period: key,
      amountCents: next,
      effectiveAt: change.effectiveAt,
      createdAt: now,
    });
    changes.push(change);
  }
  return changes;
}
