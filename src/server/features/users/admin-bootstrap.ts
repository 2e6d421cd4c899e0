import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { hashPassword } from '../auth/password.ts';
import { findUserByUsername, insertUser } from './repository.ts';

export type BootstrapOutcome = 'created' | 'promoted' | 'unchanged';

/**
 * Makes sure the configured first admin exists and is an admin. Running it again changes
 * nothing, and it never overwrites the password of an account that already exists: an operator
 * who changed it keeps their change.
 */
export async function ensureAdmin(
  db: Executor,
  username: string,
  password: string,
): Promise<BootstrapOutcome> {
  const existing = await findUserByUsername(db, username);
  if (existing) {
    if (existing.isAdmin) return 'unchanged';
    await db.update(users).set({ isAdmin: true }).where(eq(users.id, existing.id));
    return 'promoted';
  }
  const created = await insertUser(db, {
    username,
    passwordHash: await hashPassword(password),
    isAdmin: true,
    isOver18: true,
  });
  // Another instance starting at the same moment may have created it first.
  return created ? 'created' : ensureAdmin(db, username, password);
}

/** Promotes an existing user; returns false when there is no such user. */
export async function promoteUser(db: Executor, username: string): Promise<boolean> {
  const existing = await findUserByUsername(db, username);
  if (!existing) return false;
  if (!existing.isAdmin)
    await db.update(users).set({ isAdmin: true }).where(eq(users.id, existing.id));
  return true;
}
