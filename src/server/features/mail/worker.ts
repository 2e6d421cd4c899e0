import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client.ts';
import { outbox } from '../../db/schema/outbox.ts';
import { startPeriodicWorker, type PeriodicWorker } from '../../lib/periodic-worker.ts';

export interface MailMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  /** Ends any connection kept open between mails. */
  close?(): void;
}

export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  // One connection kept open and reused: a new SMTP conversation costs a TCP (and TLS) set-up
  // plus the server's greeting delay (smtp-server, like Postfix, waits 100 ms for clients that
  // talk too soon), which made each mail take over 100 ms; a reused one takes a few.
  const transporter = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: 1 });
  return {
    async send(message) {
      await transporter.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        // The same id on a re-send lets receiving servers drop the duplicate.
        messageId: `<${message.id}@skillstake>`,
      });
    },
    close: () => transporter.close(),
  };
}

function carriesLink(metadata: unknown): boolean {
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    (metadata as { eraseBodyWhenSent?: unknown }).eraseBodyWhenSent === true
  );
}

interface WorkerLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

// A claimed mail is invisible to other workers for this long; a worker that died mid-send
// leaves it to be retried once the lease runs out.
const LEASE_MS = 5 * 60_000;
const BATCH = 20;
const backoffMs = (attempts: number) => Math.min(60_000 * 2 ** attempts, 6 * 60 * 60_000);

/**
 * Delivers one batch of due mail and returns how many were sent. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease, so several instances never send the same mail at once.
 */
export async function deliverDueMail(
  db: Database,
  transport: MailTransport,
  now: Date,
  log: WorkerLogger,
): Promise<number> {
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lte(outbox.nextAttemptAt, now)))
      .orderBy(outbox.nextAttemptAt)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({
        attempts: sql`${outbox.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + LEASE_MS),
      })
      .where(
        inArray(
          outbox.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });

  let sent = 0;
  for (const mail of claimed) {
    try {
      await transport.send({
        id: mail.dedupeKey,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body,
      });
      await db
        .update(outbox)
        .set({
          sentAt: new Date(),
          lastError: null,
          ...(carriesLink(mail.metadata)
            ? { body: '[erased once sent: it held a sign-in link]' }
            : {}),
        })
        .where(eq(outbox.id, mail.id));
      sent += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db
        .update(outbox)
        .set({
          lastError: message.slice(0, 500),
          nextAttemptAt: new Date(now.getTime() + backoffMs(mail.attempts)),
        })
        .where(eq(outbox.id, mail.id));
      log.error({ mailId: mail.id, attempts: mail.attempts }, 'mail delivery failed; will retry');
    }
  }
  if (sent > 0) log.info({ sent }, 'mail delivered');
  return sent;
}

/**
 * Runs `deliverDueMail` on an interval until stopped (see `startPeriodicWorker`). Mail a person
 * is waiting for (a reset link) wakes it at once instead of waiting for the interval.
 */
export function startMailWorker(
  db: Database,
  transport: MailTransport,
  log: WorkerLogger,
  intervalMs = 10_000,
): PeriodicWorker {
  return startPeriodicWorker({
    pass: () => deliverDueMail(db, transport, new Date(), log),
    batch: BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'mail worker failed'),
  });
}
