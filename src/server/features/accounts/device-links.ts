import { hash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { DEVICE_LINK_MESSAGES } from '#shared/contracts/account-security.ts';
import { queryRows, type Database, type Executor } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { clearedAccountLinks, deviceSignIns } from '../../db/schema/account-security.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/index.ts';

/**
 * Accounts linked by a device (docs/accounts.md#devices): two accounts signed in with one device
 * id within the risk window, unless an admin cleared the pair. Linked accounts never meet in a
 * match, and the RISK tab lists them. The User-Agent is never compared: one browser build is
 * shared by millions of players.
 */

/** What is stored of a device id: its SHA-256, so that the table cannot sign anyone in as one. */
export function hashDeviceId(deviceId: string): string {
  return hash('sha256', deviceId, 'hex');
}

export interface DeviceSignIn {
  deviceHash: string;
  /** Kept to be shown (the admin's view of a device); never compared. */
  userAgent: string | null;
  ipAddress: string | null;
}

/** Notes that `userId` signed in on this device now. */
export async function recordDeviceSignIn(
  db: Executor,
  userId: number,
  device: DeviceSignIn,
  now: Date,
): Promise<void> {
  // A User-Agent is the browser's to write: keep what a person could read, not a megabyte.
  const userAgent = device.userAgent?.slice(0, 512) ?? null;
  await db
    .insert(deviceSignIns)
    .values({
      userId,
      deviceHash: device.deviceHash,
      firstSignedInAt: now,
      lastSignedInAt: now,
      userAgent,
      ipAddress: device.ipAddress,
    })
    .onConflictDoUpdate({
      target: [deviceSignIns.userId, deviceSignIns.deviceHash],
      set: { lastSignedInAt: now, userAgent, ipAddress: device.ipAddress },
    });
}

function windowStart(now: Date, windowDays: number): string {
  return new Date(now.getTime() - windowDays * 86_400_000).toISOString();
}

/** Whether the pair `a`–`b` was cleared, as SQL over two user-id expressions. */
const clearedPair = (a: ReturnType<typeof sql>, b: ReturnType<typeof sql>) =>
  sql`exists (select 1 from cleared_account_links cleared
    where cleared.low_user_id = least(${a}, ${b}) and cleared.high_user_id = greatest(${a}, ${b}))`;

/** The accounts linked to `userId` now, by id: the ones it may not play. */
export async function linkedAccountsOf(
  db: Executor,
  userId: number,
  windowDays: number,
  now: Date,
): Promise<number[]> {
  const since = windowStart(now, windowDays);
  const rows = await queryRows<{ user_id: number }>(
    db,
    sql`select distinct other.user_id from device_sign_ins mine
      join device_sign_ins other
        on other.device_hash = mine.device_hash and other.user_id <> mine.user_id
      where mine.user_id = ${userId} and mine.last_signed_in_at >= ${since}::timestamptz
        and other.last_signed_in_at >= ${since}::timestamptz
        and not ${clearedPair(sql`mine.user_id`, sql`other.user_id`)}
      order by other.user_id`,
  );
  return rows.map((row) => Number(row.user_id));
}

/** Refuses a match between `a` and `b` when they share a device (409 LINKED_ACCOUNTS). */
export async function requireNotLinked(
  db: Executor,
  a: number,
  b: number,
  windowDays: number,
  now: Date,
): Promise<void> {
  if ((await linkedAccountsOf(db, a, windowDays, now)).includes(b)) {
    throw new AppError('LINKED_ACCOUNTS', DEVICE_LINK_MESSAGES.linkedAccounts);
  }
}

export interface DeviceLink {
  player: { id: number; username: string };
  /** The latest time both accounts had signed in on a device they share. */
  lastSharedAt: Date;
  cleared: { note: string; clearedAt: Date } | null;
}

/**
 * The accounts that shared a device with `userId` in the window, for the admin's player page:
 * cleared links too, with their note.
 */
export async function deviceLinksOf(
  db: Executor,
  userId: number,
  windowDays: number,
  now: Date,
): Promise<DeviceLink[]> {
  const since = windowStart(now, windowDays);
  const rows = await queryRows<{
    user_id: number;
    username: string;
    last_shared_at: string | Date;
    note: string | null;
    cleared_at: string | Date | null;
  }>(
    db,
    sql`select other.user_id, u.username,
        max(least(mine.last_signed_in_at, other.last_signed_in_at)) as last_shared_at,
        cleared.note, cleared.cleared_at
      from device_sign_ins mine
      join device_sign_ins other
        on other.device_hash = mine.device_hash and other.user_id <> mine.user_id
      join users u on u.id = other.user_id
      left join cleared_account_links cleared
        on cleared.low_user_id = least(mine.user_id, other.user_id)
        and cleared.high_user_id = greatest(mine.user_id, other.user_id)
      where mine.user_id = ${userId} and mine.last_signed_in_at >= ${since}::timestamptz
        and other.last_signed_in_at >= ${since}::timestamptz
      group by other.user_id, u.username, cleared.note, cleared.cleared_at
      order by last_shared_at desc, other.user_id`,
  );
  return rows.map((row) => ({
    player: { id: Number(row.user_id), username: row.username },
    lastSharedAt: new Date(row.last_shared_at),
    cleared:
      row.note === null || row.cleared_at === null
        ? null
        : { note: row.note, clearedAt: new Date(row.cleared_at) },
  }));
}

/**
 * An admin clears the link between `userId` and `otherId` with a note ("brothers, one console"),
 * audited in the same transaction: the pair may play each other and is no longer flagged for it.
 * Clearing a cleared link again changes nothing.
 */
export async function clearAccountLink(
  db: Database,
  input: {
    adminId: number;
    userId: number;
    otherId: number;
    note: string;
    windowDays: number;
    now: Date;
  },
): Promise<void> {
  const { adminId, userId, otherId, note, now } = input;
  // Nobody clears a link of their own account, so that an admin's two accounts stay linked.
  if (adminId === userId || adminId === otherId) {
    throw new AppError('FORBIDDEN', DEVICE_LINK_MESSAGES.ownLink);
  }
  const linked = await deviceLinksOf(db, userId, input.windowDays, now);
  if (!linked.some((link) => link.player.id === otherId)) {
    throw new AppError('NOT_FOUND', DEVICE_LINK_MESSAGES.linkNotFound);
  }
  await inTransaction(db, async ({ tx }) => {
    const [inserted] = await tx
      .insert(clearedAccountLinks)
      .values({
        lowUserId: Math.min(userId, otherId),
        highUserId: Math.max(userId, otherId),
        note,
        clearedBy: adminId,
        clearedAt: now,
      })
      .onConflictDoNothing()
      .returning({ lowUserId: clearedAccountLinks.lowUserId });
    if (!inserted) return;
    await recordAudit(tx, {
      actorUserId: adminId,
      action: 'user.link_cleared',
      target: { type: 'user', id: userId },
      details: { otherUserId: otherId },
      reason: note,
    });
  });
}

/** Forgets an account's devices, as its closing forgets its sessions. */
export async function eraseDeviceSignIns(db: Executor, userId: number): Promise<void> {
  await db.delete(deviceSignIns).where(eq(deviceSignIns.userId, userId));
}
