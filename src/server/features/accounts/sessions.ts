import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { users, type User } from '../../db/schema/users.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { Place } from '../../lib/geo-locator.ts';
import type { CachedSession, SessionCache } from './session-cache.ts';

export const SESSION_COOKIE = 'sid';

export interface SessionPolicy {
  idleMs: number;
  maxAgeMs: number;
}

// Writing last_seen_at on every request would turn every read into a write; a few minutes of
// slack on an idle timeout measured in hours is harmless.
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Starts a session and returns the token for the cookie; only its hash is stored. */
export async function createSession(
  db: Executor,
  userId: number,
  policy: SessionPolicy,
  now: Date,
  device: {
    userAgent: string | null;
    ipAddress: string | null;
    place?: Place | null;
    deviceHash?: string | null;
  } = {
    userAgent: null,
    ipAddress: null,
  },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + policy.maxAgeMs);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    // A User-Agent is the browser's to write: keep what a person could read, not a megabyte.
    userAgent: device.userAgent?.slice(0, 512) ?? null,
    ipAddress: device.ipAddress,
    deviceHash: device.deviceHash ?? null,
    placeCountry: device.place?.country ?? null,
    placeState: device.place?.state ?? null,
    placeLabel: device.place?.label ?? null,
  });
  return { token, expiresAt };
}

/**
 * The user behind a session token, or null when the token is unknown, past its absolute expiry
 * or idle for too long. Expired rows are deleted when they are found. With a cache, a session
 * checked in the last few seconds is answered from memory until it is due for its next touch.
 */
export async function findSessionUser(
  db: Executor,
  token: string,
  policy: SessionPolicy,
  now: Date,
  cache?: SessionCache,
): Promise<{ user: User; tokenHash: string } | null> {
  const tokenHash = hashToken(token);
  const at = now.getTime();
  const cached = cache?.get(tokenHash, at);
  if (cached && isLive(cached, policy, at) && at - cached.lastSeenAt < TOUCH_INTERVAL_MS) {
    return { user: cached.user, tokenHash };
  }
  const mark = cache?.mark() ?? 0;
  const [row] = await db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // A deleted account's sessions are revoked at deletion; this also shuts out one created by a
    // login that raced the deletion.
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return null;
  const session = {
    user: row.user,
    lastSeenAt: row.session.lastSeenAt.getTime(),
    expiresAt: row.session.expiresAt.getTime(),
  };
  if (!isLive(session, policy, at)) {
    cache?.forgetToken(tokenHash);
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  if (at - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
    session.lastSeenAt = at;
  }
  cache?.store(tokenHash, session, mark, at);
  return { user: row.user, tokenHash };
}

function isLive(session: CachedSession, policy: SessionPolicy, at: number): boolean {
  return session.expiresAt > at && session.lastSeenAt + policy.idleMs > at;
}

/**
 * Ends one session, and says so on `bus`: every instance forgets its copy and closes the sockets
 * opened with it.
 */
export async function revokeSession(db: Executor, bus: EventBus, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  await bus.publish({ type: 'session-revoked', tokenHash });
}

export async function revokeUserSessions(db: Executor, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
