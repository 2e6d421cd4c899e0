import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { isPossibleUsername } from '#shared/contracts/auth.ts';
import type { Executor } from '../../db/client.ts';
import { users, type NewUser, type User } from '../../db/schema/users.ts';

/**
 * The account named `username` in any letter case; none for a name no account can have
 * (`isPossibleUsername`). Every look-up by name goes through here, so a rule keyed by the account
 * it finds (a sign-in limit) cannot be dodged by spelling the name another way.
 */
export async function findUserByUsername(
  db: Executor,
  username: string,
): Promise<User | undefined> {
  if (!isPossibleUsername(username)) return undefined;
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

/** How many names the opponent field suggests. */
export const PLAYER_SUGGESTIONS = 8;

/**
 * Usernames starting with `prefix` (any case) of players a challenge can go to now: not the viewer,
 * not deleted, suspended or on a break (docs/challenges.md#finding-an-opponent). Those are left
 * out, never marked, so that the suggestions tell nobody about them.
 */
export async function suggestOpponents(
  db: Executor,
  viewerId: number,
  prefix: string,
  now: Date,
): Promise<string[]> {
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(
      and(
        sql`lower(${users.username}) like ${pattern}`,
        ne(users.id, viewerId),
        isNull(users.deletedAt),
        sql`(${users.suspendedAt} is null or ${users.suspendedUntil} <= ${now.toISOString()}::timestamptz)`,
        sql`(${users.playBreakUntil} is null or ${users.playBreakUntil} <= ${now.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(sql`lower(${users.username})`)
    .limit(PLAYER_SUGGESTIONS);
  return rows.map((row) => row.username);
}

/**
 * Locks a user's row until the transaction ends. Deletion takes it `update`; an admin's balance
 * change takes it `share`, so the two cannot interleave. Inserting a row that references the
 * user (a challenge, an acceptance, a payout) takes a key-share lock on it too, so while a
 * deletion holds the row none of those can start, and the deletion sees all that finished.
 */
export async function lockUser(
  db: Executor,
  id: number,
  strength: 'update' | 'no key update' | 'share',
): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1).for(strength);
  return user;
}
