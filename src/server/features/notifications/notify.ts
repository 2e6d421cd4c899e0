import { sql, type SQL } from 'drizzle-orm';
import type { NotificationKind, NotificationView } from '#shared/contracts/notifications.ts';
import { queryRows } from '../../db/client.ts';
import type { Notification } from '../../db/schema/notifications.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import type { EventBus } from '../../lib/event-bus.ts';

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

/** A notification as the statement that stored it answers it (`told`), for the live push. */
export interface StoredNews {
  id: number;
  userId: number;
  kind: NotificationKind;
  challengeId: number | null;
  title: string;
  body: string;
  /** As PostgreSQL writes a timestamp in JSON: ISO 8601 with microseconds and an offset. */
  createdAt: string;
}

/**
 * The `told` and `mailed` steps of a statement that tells players something (docs/fair-play.md), to
 * follow its `with`: the notifications `rows` selects (user_id, kind, challenge_id, title, body,
 * dedupe_key, in that order) and, with `mail`, the same words by mail where the player has an
 * address and is not deleted. Written by the statement that makes the change, they never exist
 * without it, and take no round trip of their own. A key written before adds nothing; `told`
 * answers what was stored, which `toldNews` turns into the statement's `news` column.
 */
export function tellingSteps(rows: SQL, mail: boolean): SQL {
  const told = sql`told as (
      insert into notifications (user_id, kind, challenge_id, title, body, dedupe_key)
      ${rows}
      on conflict (dedupe_key) do nothing
      returning id, user_id, kind, challenge_id, title, body, dedupe_key, created_at
    )`;
  if (!mail) return told;
  return sql`${told},
    mailed as (
      insert into outbox (dedupe_key, recipient, subject, body, metadata)
      select 'notification:' || told.dedupe_key, u.email, told.title, told.body,
        jsonb_build_object('userId', told.user_id, 'kind', told.kind,
          'challengeId', told.challenge_id)
      from told join users u on u.id = told.user_id
      where u.email is not null and u.deleted_at is null
      on conflict (dedupe_key) do nothing
    )`;
}

/** What `told` stored, as one JSON column `news` of the statement's rows (`StoredNews[]`). */
export const toldNews: SQL = sql`(select coalesce(jsonb_agg(jsonb_build_object(
    'id', told.id, 'userId', told.user_id, 'kind', told.kind, 'challengeId', told.challenge_id,
    'title', told.title, 'body', told.body, 'createdAt', told.created_at)), '[]'::jsonb)
  from told) as news`;

/** Pushes notifications a committed statement stored, as its `news` column answered them. */
export async function publishNews(bus: EventBus, news: readonly StoredNews[]): Promise<void> {
  await Promise.all(
    news.map(({ userId, createdAt, ...notification }) =>
      bus.publish({
        type: 'notification',
        userId,
        notification: {
          ...notification,
          createdAt: new Date(createdAt).toISOString(),
          read: false,
        },
      }),
    ),
  );
}

/**
 * Tells a player something inside the transaction that caused it (docs/fair-play.md): the row, and
 * the same words by mail when the player has an address and is not deleted (unless the cause mails
 * them itself), in one statement. The live push leaves once the transaction has committed; a key
 * written before changes nothing and pushes nothing.
 */
export async function notify(uow: UnitOfWork, bus: EventBus, news: NewNotification): Promise<void> {
  const [stored] = await queryRows<{ news: StoredNews[] }>(
    uow.tx,
    sql`with ${tellingSteps(
      sql`values (${news.userId}::integer, ${news.kind}::text, ${news.challengeId ?? null}::integer,
        ${news.title}::text, ${news.body}::text, ${news.dedupeKey}::text)`,
      news.mail !== false,
    )}
    select ${toldNews}`,
  );
  const told = stored?.news ?? [];
  if (told.length > 0) uow.afterCommit(() => publishNews(bus, told));
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
