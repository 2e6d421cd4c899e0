import { eq } from 'drizzle-orm';
import { moneyLockMessage, type MoneyLock } from '#shared/money-lock.ts';
import { playBreakMessage, type PlayBreak } from '#shared/play-breaks.ts';
import { suspensionMessage, type Suspension } from '#shared/suspension.ts';
import type { Executor } from '../../db/client.ts';
import { users, type User } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { findUserByUsername } from './repository.ts';

/** The columns a suspension lives in. */
export type SuspensionColumns = Pick<User, 'suspendedAt' | 'suspendedUntil' | 'suspensionReason'>;

/** The columns a player's own break from cash play lives in (docs/responsible-play.md). */
export type PlayBreakColumns = Pick<User, 'playBreakKind' | 'playBreakUntil'>;

/** The columns a disputed card payment's money lock lives in (docs/chargebacks.md). */
export type MoneyLockColumns = Pick<User, 'moneyLockedAt' | 'moneyLockReason'>;

/**
 * What decides whether a player may deposit, create and accept: an admin's word, their own, and
 * a card dispute's lock.
 */
export type StandingColumns = SuspensionColumns & PlayBreakColumns & MoneyLockColumns;

/**
 * Whether an admin's suspension holds at `now` (docs/fair-play.md): one was set and it has no end,
 * or its end is still ahead. The one place that decides it; every rule asks here.
 */
export function isSuspended(user: SuspensionColumns, now: Date): boolean {
  return user.suspendedAt !== null && (user.suspendedUntil === null || user.suspendedUntil > now);
}

/** The suspension in force at `now`, as the API shows it; null when there is none. */
export function suspensionOf(user: SuspensionColumns, now: Date): Suspension | null {
  if (!isSuspended(user, now)) return null;
  return {
    // Every suspension is written with its reason; a row edited by hand may lack one.
    reason: user.suspensionReason ?? 'no reason was recorded',
    until: user.suspendedUntil?.toISOString() ?? null,
  };
}

/** The break the player took that is in force at `now`; null once it has ended by itself. */
export function playBreakOf(user: PlayBreakColumns, now: Date): PlayBreak | null {
  if (user.playBreakKind === null || user.playBreakUntil === null) return null;
  if (user.playBreakUntil <= now) return null;
  return { kind: user.playBreakKind, until: user.playBreakUntil.toISOString() };
}

/** The money lock in force, as the API shows it; null when there is none. */
export function moneyLockOf(user: MoneyLockColumns): MoneyLock | null {
  if (user.moneyLockedAt === null) return null;
  return {
    reason: user.moneyLockReason ?? 'a card payment was disputed',
    since: user.moneyLockedAt.toISOString(),
  };
}

/** Refuses what a money lock stops (a payout, say) with the lock's reason. */
export function requireMoneyUnlocked(user: MoneyLockColumns): void {
  const lock = moneyLockOf(user);
  if (lock) throw new AppError('MONEY_LOCKED', moneyLockMessage(lock));
}

/**
 * Locks the player's money (docs/chargebacks.md) on a row the caller holds `for update`; a lock
 * in force keeps its first reason and time. Answers whether this call set it.
 */
export async function lockMoney(
  db: Executor,
  user: MoneyLockColumns & { id: number },
  reason: string,
  now: Date,
): Promise<boolean> {
  if (user.moneyLockedAt !== null) return false;
  await db
    .update(users)
    .set({ moneyLockedAt: now, moneyLockReason: reason })
    .where(eq(users.id, user.id));
  return true;
}

/** Lifts the money lock of a row the caller holds `for update`. */
export async function liftMoneyLock(db: Executor, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ moneyLockedAt: null, moneyLockReason: null })
    .where(eq(users.id, userId));
}

/** The columns of `readStanding`, for a statement that reads them with others. */
export const STANDING_COLUMNS = {
  suspendedAt: users.suspendedAt,
  suspendedUntil: users.suspendedUntil,
  suspensionReason: users.suspensionReason,
  playBreakKind: users.playBreakKind,
  playBreakUntil: users.playBreakUntil,
  moneyLockedAt: users.moneyLockedAt,
  moneyLockReason: users.moneyLockReason,
};

/**
 * The player's suspension and break columns as the database holds them now. The session's copy
 * of the user may be seconds old (features/auth/session-cache.ts): the money routes read afresh.
 */
export async function readStanding(db: Executor, userId: number): Promise<StandingColumns> {
  const [row] = await db.select(STANDING_COLUMNS).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw new Error(`user ${userId} has a session but no row`);
  return row;
}

/**
 * Refuses deposits, creating and accepting to a suspended player (with the reason and the end),
 * to one on a time-out or self-exclusion (with its end) and to one whose money a card dispute
 * locked (with the reason); otherwise answers what it read, so that a write can be guarded by it
 * (none may have changed in between). `justRead` is the standing this request has just read from
 * the database with the player's state (the location check, `requirePlayerLocation`), judged
 * instead of reading it again. `repaying` lets a locked player through: a crypto deposit is how a
 * debt is repaid.
 */
export async function requireCashPlayAllowed(
  db: Executor,
  userId: number,
  now: Date,
  justRead?: StandingColumns,
  { repaying = false }: { repaying?: boolean } = {},
): Promise<StandingColumns> {
  const columns = justRead ?? (await readStanding(db, userId));
  const suspension = suspensionOf(columns, now);
  if (suspension) throw new AppError('ACCOUNT_SUSPENDED', suspensionMessage(suspension));
  const playBreak = playBreakOf(columns, now);
  if (playBreak) throw new AppError('PLAY_PAUSED', playBreakMessage(playBreak));
  if (!repaying) requireMoneyUnlocked(columns);
  return columns;
}

/**
 * The id of the player named `username` if a challenge can go to them now: an account neither
 * deleted nor suspended nor on a break (docs/challenges.md#finding-an-opponent); null otherwise,
 * whichever the reason.
 */
export async function findChallengeableUser(
  db: Executor,
  username: string,
  now: Date,
): Promise<number | null> {
  const user = await findUserByUsername(db, username);
  if (!user || user.deletedAt !== null) return null;
  if (suspensionOf(user, now) || playBreakOf(user, now)) return null;
  return user.id;
}
