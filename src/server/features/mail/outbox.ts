import type { Executor } from '../../db/client.ts';
import { outbox } from '../../db/schema/outbox.ts';

export interface Mail {
  /** One mail per event and recipient: enqueueing the same key twice sends once. */
  dedupeKey: string;
  recipient: string;
  subject: string;
  body: string;
  metadata?: Record<string, unknown>;
  /**
   * The body holds a link that opens the account (a reset or verification link): it is erased
   * once the mail has left, so the outbox table does not keep a working key.
   */
  eraseBodyWhenSent?: boolean;
}

/** Queues mail inside the caller's transaction, so it exists exactly when the event does. */
export async function enqueueMail(db: Executor, mails: Mail[]): Promise<void> {
  if (mails.length === 0) return;
  await db
    .insert(outbox)
    .values(
      mails.map(({ eraseBodyWhenSent, ...mail }) => ({
        ...mail,
        metadata: eraseBodyWhenSent
          ? { ...mail.metadata, eraseBodyWhenSent }
          : (mail.metadata ?? null),
      })),
    )
    .onConflictDoNothing();
}
