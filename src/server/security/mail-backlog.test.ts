import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { enqueueMail } from '#server/features/mail/outbox.ts';
import { startMailWorker, type MailTransport } from '#server/features/mail/worker.ts';
import { openTestDatabase } from '#tests/helpers/database.ts';

/**
 * Found by the crash test: the worker sent one batch of 20 per tick (every 10 s in production),
 * so a stream of settlements built an outbox backlog faster than it drained. A full batch now
 * means "go on at once".
 */

let database: DatabaseHandle;
const quiet = { info: () => {}, error: () => {} };

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('the mail worker under a backlog', () => {
  it('drains more than one batch in a single tick', async () => {
    const mails = Array.from({ length: 65 }, (_, i) => ({
      dedupeKey: `backlog:${i}`,
      recipient: `p${i}@example.com`,
      subject: 'S',
      body: 'B',
    }));
    await enqueueMail(database.db, mails);
    const sentAt: number[] = [];
    const transport: MailTransport = {
      async send() {
        sentAt.push(Date.now());
      },
    };
    const intervalMs = 2000;
    const worker = startMailWorker(database.db, transport, quiet, intervalMs);
    try {
      await expect.poll(() => sentAt.length, { timeout: 10_000, interval: 50 }).toBe(65);
      // One tick sent them all: four batches, back to back, well inside one interval.
      expect(Math.max(...sentAt) - Math.min(...sentAt)).toBeLessThan(intervalMs);
    } finally {
      await worker.stop();
    }
  });
});
