import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { users, type User } from '../../db/schema/users.ts';

export const SESSION_COOKIE = 'sid';

export interface SessionPolicy {
  idleMs: number;
  maxAgeMs: number;
}

// Writing last_seen_at on every request would turn every read into a write; a few minutes of
// slack on an idle timeout measured in hours is harmless.
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Starts a session and returns the token for the cookie; only its hash is stored. */
export async function createSession(
  db: Executor,
  userId: number,
  policy: SessionPolicy,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + policy.maxAgeMs);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

/**
 * The user behind a session token, or null when the token is unknown, past its absolute expiry
 * or idle for too long. Expired rows are deleted when they are found.
 */
export async function findSessionUser(
  db: Executor,
  token: string,
  policy: SessionPolicy,
  now: Date,
): Promise<{ user: User; tokenHash: string } | null> {
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // A deleted account's sessions are revoked at deletion; this also shuts out one created by a
    // login that raced the deletion.
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return null;
  const idleDeadline = row.session.lastSeenAt.getTime() + policy.idleMs;
  if (row.session.expiresAt.getTime() <= now.getTime() || idleDeadline <= now.getTime()) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  if (now.getTime() - row.session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return { user: row.user, tokenHash };
}

export async function revokeSession(db: Executor, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function revokeUserSessions(db: Executor, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
