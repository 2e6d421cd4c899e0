import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import Bowser from 'bowser';
import { and, desc, eq, inArray, ne, or } from 'drizzle-orm';
import type { SessionView } from '#shared/contracts/account-security.ts';
import type { Executor } from '../../db/client.ts';
import { knownDevices } from '../../db/schema/account-security.ts';
import { sessions } from '../../db/schema/sessions.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import type { SessionPolicy } from './sessions.ts';

/** "Chrome 131 on Windows", or null for a User-Agent that names no browser (a script, a bot). */
export function describeBrowser(userAgent: string | null): string | null {
  const parsed = browserOf(userAgent);
  if (!parsed) return null;
  const version = parsed.version ? ` ${parsed.version}` : '';
  return parsed.os ? `${parsed.name}${version} on ${parsed.os}` : `${parsed.name}${version}`;
}

function browserOf(userAgent: string | null) {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name) return null;
  return { name: browser.name, version: browser.version?.split('.')[0], os: os.name };
}

/**
 * Where a sign-in comes from, as coarse as a place: the network of the address (a /24 for IPv4, a
 * /48 for IPv6), so a home router that gets a new address from the same provider block is the same
 * place. The city lookup of docs/responsible-play.md names the place for people (the devices list,
 * the mail); the key stays the network, so that accounts known before the lookup are not mailed
 * anew.
 */
export function placeOf(address: string): string {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    const [head = ''] = address.split('::');
    const groups = head.split(':').filter(Boolean);
    while (groups.length < 3) groups.push('0');
    return `${groups.slice(0, 3).join(':')}::/48`;
  }
  return address;
}

/**
 * Records the device of a sign-in (by its cookie's hash) and says whether the account had signed
 * in on it before. The first device an account ever records is not news: it is where the account
 * was made or first used. A key from before device ids (the browser's name and system, and the
 * network) is what a device's first sign-in is recognised by, and then replaced.
 */
export async function recordDevice(
  db: Executor,
  userId: number,
  device: { deviceHash: string; userAgent: string | null; ipAddress: string },
  now: Date,
): Promise<'known' | 'first' | 'new'> {
  const deviceKey = `device:${device.deviceHash}`;
  const [inserted] = await db
    .insert(knownDevices)
    .values({ userId, deviceKey, firstSeenAt: now })
    .onConflictDoNothing()
    .returning({ deviceKey: knownDevices.deviceKey });
  if (!inserted) return 'known';
  const [legacy] = await db
    .delete(knownDevices)
    .where(
      and(
        eq(knownDevices.userId, userId),
        eq(knownDevices.deviceKey, legacyKeyOf(device.userAgent, device.ipAddress)),
      ),
    )
    .returning({ deviceKey: knownDevices.deviceKey });
  if (legacy) return 'known';
  const [other] = await db
    .select({ deviceKey: knownDevices.deviceKey })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), ne(knownDevices.deviceKey, deviceKey)))
    .limit(1);
  return other ? 'new' : 'first';
}

/** The key a sign-in was known by before device ids: the browser's name and system, the network. */
function legacyKeyOf(userAgent: string | null, ipAddress: string): string {
  const browser = browserOf(userAgent);
  const browserKey = browser ? `${browser.name}|${browser.os ?? ''}` : 'unknown';
  return createHash('sha256')
    .update(`${browserKey}|${placeOf(ipAddress)}`)
    .digest('base64url');
}

/**
 * The player's signed-in devices, the asking one first, then the most recently used: one row per
 * device (docs/accounts.md#devices), shown as its newest session, signed in since its oldest. A
 * session from before device ids is a device of its own.
 */
export async function listSessions(
  db: Executor,
  userId: number,
  currentTokenHash: string | null,
  policy: SessionPolicy,
  now: Date,
): Promise<SessionView[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  const devices = new Map<string, SessionView>();
  for (const row of rows) {
    // Sessions past their idle or absolute end are over, though their rows wait for cleaning.
    if (row.expiresAt <= now || row.lastSeenAt.getTime() + policy.idleMs <= now.getTime()) continue;
    const key = row.deviceHash ?? `session:${row.id}`;
    const current = row.tokenHash === currentTokenHash;
    const seen = devices.get(key);
    if (seen) {
      // Rows come newest first: an older session of the device only moves its start back.
      seen.current ||= current;
      if (row.createdAt.toISOString() < seen.createdAt)
        seen.createdAt = row.createdAt.toISOString();
      continue;
    }
    devices.set(key, {
      id: row.id,
      current,
      browser: describeBrowser(row.userAgent),
      address: row.ipAddress,
      place: row.placeLabel,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
    });
  }
  return [...devices.values()].sort((a, b) => Number(b.current) - Number(a.current));
}

/**
 * Deletes the sessions of `userId` that `which` selects and returns their token hashes, for
 * `announceEndedSessions` once the deletion has committed.
 */
export async function deleteSessions(
  db: Executor,
  userId: number,
  /**
   * One device by the id of a session of it (its every session), or all but the one whose token
   * hash is given (null: all).
   */
  which: { only: number } | { except: string | null },
): Promise<string[]> {
  const condition =
    'only' in which
      ? and(
          eq(sessions.userId, userId),
          or(
            eq(sessions.id, which.only),
            inArray(
              sessions.deviceHash,
              db
                .select({ deviceHash: sessions.deviceHash })
                .from(sessions)
                .where(and(eq(sessions.userId, userId), eq(sessions.id, which.only))),
            ),
          ),
        )
      : which.except === null
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.tokenHash, which.except));
  const ended = await db
    .delete(sessions)
    .where(condition)
    .returning({ tokenHash: sessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/**
 * Tells every instance that these sessions ended: each forgets its cached copy and closes the
 * sockets opened with them.
 */
export async function announceEndedSessions(bus: EventBus, tokenHashes: string[]): Promise<void> {
  await Promise.all(
    tokenHashes.map((tokenHash) => bus.publish({ type: 'session-revoked', tokenHash })),
  );
}
