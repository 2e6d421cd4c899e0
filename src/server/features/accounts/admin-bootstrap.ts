import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { hashPassword } from './password.ts';
import { findUserByUsername, insertUser } from './repository.ts';

export type BootstrapOutcome = 'created' | 'promoted' | 'unchanged';

/**
 * Makes sure the configured first admin exists and is an admin. Running it again changes
 * nothing, and it never overwrites the password of an account that already exists: an operator
 * who changed it keeps their change. Running instances hear of a promotion through `bus`.
 */
export async function ensureAdmin(
  db: Executor,
  bus: EventBus,
  username: string,
  password: string,
): Promise<BootstrapOutcome> {
  const existing = await findUserByUsername(db, username);
  if (existing) {
    if (existing.isAdmin) return 'unchanged';
    await promote(db, bus, existing.id);
    return 'promoted';
  }
  const created = await insertUser(db, {
    username,
    passwordHash: await hashPassword(password),
    isAdmin: true,
    isOver18: true,
  });
  // Another instance starting at the same moment may have created it first.
  return created ? 'created' : ensureAdmin(db, bus, username, password);
}

/** Promotes an existing user; returns false when there is no such user. */
export async function promoteUser(db: Executor, bus: EventBus, username: string): Promise<boolean> {
  const existing = await findUserByUsername(db, username);
  if (!existing) return false;
  if (!existing.isAdmin) await promote(db, bus, existing.id);
  return true;
}

async function promote(db: Executor, bus: EventBus, userId: number): Promise<void> {
  await db.update(users).set({ isAdmin: true }).where(eq(users.id, userId));
  // Instances that hold the user's sessions in memory must see the new rights at once.
  await bus.publish({ type: 'user-changed', userId });
}
