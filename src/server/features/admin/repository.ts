import { asc, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users, type User } from '../../db/schema/users.ts';
import { balanceCentsOf } from '../ledger/index.ts';

export interface UserWithBalance {
  user: User;
  balanceCents: bigint;
}

/** Accounts that still exist: deleted ones have no name, no balance and nothing to manage. */
export async function listUsersWithBalances(
  db: Executor,
  page: { limit: number; offset: number },
): Promise<UserWithBalance[]> {
  const rows = await db
    .select({ user: users, balanceCents: balanceCentsOf(users.id) })
    .from(users)
    .where(isNull(users.deletedAt))
    .orderBy(asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => ({ user: row.user, balanceCents: row.balanceCents }));
}
