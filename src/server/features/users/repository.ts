import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { users, type NewUser, type User } from '../../db/schema/users.ts';

export async function findUserByUsername(
  db: Executor,
  username: string,
): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return user;
}

export async function findUserById(db: Executor, id: number): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** Inserts a user, or returns null when the username (in any case) is taken. */
export async function insertUser(db: Executor, values: NewUser): Promise<User | null> {
  const [user] = await db
    .insert(users)
    .values(values)
    // The only unique key a new row can collide on is lower(username).
    .onConflictDoNothing()
    .returning();
  return user ?? null;
}
