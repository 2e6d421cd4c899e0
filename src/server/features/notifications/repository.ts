import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { MarkReadBody } from '#shared/contracts/notifications.ts';
import type { Executor } from '../../db/client.ts';
import { notifications, type Notification } from '../../db/schema/notifications.ts';

/** A player's notifications, newest first, `limit` at a time before an id. */
export function listNotifications(
  db: Executor,
  userId: number,
  page: { limit: number; before?: number | undefined },
): Promise<Notification[]> {
  const mine = eq(notifications.userId, userId);
  return db
    .select()
    .from(notifications)
    .where(page.before === undefined ? mine : and(mine, lt(notifications.id, BigInt(page.before))))
    .orderBy(desc(notifications.id))
    .limit(page.limit);
}

export async function countUnread(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks the player's own notifications read: the ids given, or all; others' ids change nothing. */
export async function markRead(
  db: Executor,
  userId: number,
  which: MarkReadBody,
  now: Date,
): Promise<void> {
  const unread = and(eq(notifications.userId, userId), isNull(notifications.readAt));
  await db
    .update(notifications)
    .set({ readAt: now })
    .where('all' in which ? unread : and(unread, inArray(notifications.id, which.ids.map(BigInt))));
}
