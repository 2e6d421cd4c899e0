import { eq } from 'drizzle-orm';
import { suspensionMessage, type Suspension } from '#shared/suspension.ts';
import type { Executor } from '../../db/client.ts';
import { users, type User } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';

/** The columns a suspension lives in. */
export type SuspensionColumns = Pick<User, 'suspendedAt' | 'suspendedUntil' | 'suspensionReason'>;

/**
 * Whether an admin's suspension holds at `now` (DESIGN §10): one was set and it has no end, or
 * its end is still ahead. The one place that decides it; every rule asks here.
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

/**
 * The player's suspension columns as the database holds them now. The session's copy of the user
 * may be seconds old (features/auth/session-cache.ts): the money routes read afresh here.
 */
export async function readSuspension(db: Executor, userId: number): Promise<SuspensionColumns> {
  const [row] = await db
    .select({
      suspendedAt: users.suspendedAt,
      suspendedUntil: users.suspendedUntil,
      suspensionReason: users.suspensionReason,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new Error(`user ${userId} has a session but no row`);
  return row;
}

/**
 * Refuses a suspended player with the reason and the end; otherwise answers what it read, so that
 * a write can be guarded by it (the suspension must not have changed in between).
 */
export async function requireNotSuspended(
  db: Executor,
  userId: number,
  now: Date,
): Promise<SuspensionColumns> {
  const columns = await readSuspension(db, userId);
  const suspension = suspensionOf(columns, now);
  if (suspension) throw new AppError('ACCOUNT_SUSPENDED', suspensionMessage(suspension));
  return columns;
}
