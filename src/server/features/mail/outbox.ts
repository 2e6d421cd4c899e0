import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { CHANGED } from '../../db/guarded-write.ts';
import { outbox } from '../../db/schema/outbox.ts';

export interface Mail {
  /** One mail per event and recipient: enqueueing the same key twice sends once. */
  dedupeKey: string;
  recipient: string;
  subject: string;
  body: string;
  metadata?: Record<string, unknown>;
}

/** Queues mail inside the caller's transaction, so it exists exactly when the event does. */
export async function enqueueMail(db: Executor, mails: Mail[]): Promise<void> {
  if (mails.length === 0) return;
  await db
    .insert(outbox)
    .values(mails.map((mail) => ({ ...mail, metadata: mail.metadata ?? null })))
    .onConflictDoNothing();
}

/**
 * The same mail as a write to run alongside a guarded change (`db/guarded-write.ts`): queued
 * only if the change changed a row. No mail, no write.
 */
export function queueMailWithChange(mails: Mail[]): SQL[] {
  if (mails.length === 0) return [];
  const rows = mails.map(
    (mail) =>
      sql`(${mail.dedupeKey}::text, ${mail.recipient}::text, ${mail.subject}::text, ${mail.body}::text, ${mail.metadata ? JSON.stringify(mail.metadata) : null}::jsonb)`,
  );
  return [
    sql`insert into ${outbox} (dedupe_key, recipient, subject, body, metadata)
      select * from (values ${sql.join(rows, sql`, `)})
        as mail (dedupe_key, recipient, subject, body, metadata)
      where exists (select 1 from ${CHANGED})
      on conflict (dedupe_key) do nothing`,
  ];
}
