import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { NotificationKind, NotificationView } from '#shared/contracts/notifications.ts';
import { notifications, type Notification } from '../../db/schema/notifications.ts';
import { users } from '../../db/schema/users.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { enqueueMail } from '../mail/outbox.ts';

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  challengeId?: number | null;
  title: string;
  body: string;
  /** One notification per cause and player: writing the same key twice tells them once. */
  dedupeKey: string;
  /** false when the cause sends a mail of its own (a payout's decision, a dispute's). */
  mail?: boolean;
}

/**
 * Tells a player something inside the transaction that caused it (DESIGN §10): the row, and the
 * same words by mail when the player has an address and is not deleted (unless the cause mails
 * them itself). The live push leaves
 * once the transaction has committed; a key written before changes nothing and pushes nothing.
 */
export async function notify(uow: UnitOfWork, bus: EventBus, news: NewNotification): Promise<void> {
  const [row] = await uow.tx
    .insert(notifications)
    .values({
      userId: news.userId,
      kind: news.kind,
      challengeId: news.challengeId ?? null,
      title: news.title,
      body: news.body,
      dedupeKey: news.dedupeKey,
    })
    .onConflictDoNothing()
    .returning({ id: notifications.id, createdAt: notifications.createdAt });
  if (!row) return;
  const [recipient] = await uow.tx
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, news.userId));
  if (news.mail !== false && recipient?.email && !recipient.deletedAt) {
    await enqueueMail(uow.tx, [
      {
        dedupeKey: `notification:${news.dedupeKey}`,
        recipient: recipient.email,
        subject: news.title,
        body: news.body,
        metadata: { userId: news.userId, kind: news.kind, challengeId: news.challengeId ?? null },
      },
    ]);
  }
  uow.afterCommit(() =>
    bus.publish({
      type: 'notification',
      userId: news.userId,
      notification: {
        id: Number(row.id),
        kind: news.kind,
        challengeId: news.challengeId ?? null,
        title: news.title,
        body: news.body,
        createdAt: row.createdAt.toISOString(),
        read: false,
      },
    }),
  );
}

export function toNotificationView(row: Notification): NotificationView {
  return {
    id: Number(row.id),
    kind: row.kind as NotificationKind,
    challengeId: row.challengeId,
    title: row.title,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/**
 * Pushes notifications that a committed statement wrote itself (a result's report writes them
 * with the result, in one call): read back by their keys, then published.
 */
export async function publishStored(
  db: Executor,
  bus: EventBus,
  dedupeKeys: string[],
): Promise<void> {
  if (dedupeKeys.length === 0) return;
  const rows = await db
    .select()
    .from(notifications)
    .where(inArray(notifications.dedupeKey, dedupeKeys));
  await Promise.all(
    rows.map((row) =>
      bus.publish({
        type: 'notification',
        userId: row.userId,
        notification: toNotificationView(row),
      }),
    ),
  );
}
