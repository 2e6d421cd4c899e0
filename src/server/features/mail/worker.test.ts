import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { outbox } from '#server/db/schema/outbox.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { enqueueMail } from './outbox.ts';
import { deliverDueMail, type MailMessage, type MailTransport } from './worker.ts';

let database: DatabaseHandle;
const quiet = { info: () => {}, error: () => {} };

function recorder(failFor: Set<string> = new Set()): MailTransport & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    async send(message) {
      if (failFor.has(message.to)) throw new Error('550 mailbox unavailable');
      sent.push(message);
    },
  };
}

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('mail outbox', () => {
  it('enqueueing the same event twice queues one mail; delivery sends it once', async () => {
    const mail = { dedupeKey: 'evt:1', recipient: 'a@example.com', subject: 'Hi', body: 'Body' };
    await enqueueMail(database.db, [mail]);
    await enqueueMail(database.db, [mail]);
    const transport = recorder();
    const now = new Date();
    expect(await deliverDueMail(database.db, transport, now, quiet)).toBe(1);
    expect(
      await deliverDueMail(database.db, transport, new Date(now.getTime() + 3_600_000), quiet),
    ).toBe(0);
    expect(transport.sent).toEqual([
      { id: 'evt:1', to: 'a@example.com', subject: 'Hi', text: 'Body' },
    ]);
  });

  it('a failed delivery is retried later with the error recorded', async () => {
    await enqueueMail(database.db, [
      { dedupeKey: 'evt:2', recipient: 'down@example.com', subject: 'S', body: 'B' },
    ]);
    const now = new Date(Date.now() + 10_000);
    const failing = recorder(new Set(['down@example.com']));
    expect(await deliverDueMail(database.db, failing, now, quiet)).toBe(0);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.dedupeKey, 'evt:2'));
    expect(row).toMatchObject({ attempts: 1, lastError: '550 mailbox unavailable', sentAt: null });
    // Not before its back-off ends.
    const healthy = recorder();
    expect(await deliverDueMail(database.db, healthy, new Date(now.getTime() + 1000), quiet)).toBe(
      0,
    );
    expect(
      await deliverDueMail(database.db, healthy, new Date(now.getTime() + 3 * 60_000), quiet),
    ).toBe(1);
    expect(healthy.sent.map((m) => m.id)).toEqual(['evt:2']);
  });
});

describe.runIf(onPostgres)('mail outbox on PostgreSQL', () => {
  it('two workers running at once send each mail exactly once', async () => {
    const mails = Array.from({ length: 60 }, (_, i) => ({
      dedupeKey: `bulk:${i}`,
      recipient: `p${i}@example.com`,
      subject: 'S',
      body: 'B',
    }));
    await enqueueMail(database.db, mails);
    const a = recorder();
    const b = recorder();
    const now = new Date(Date.now() + 60 * 60_000);
    for (let round = 0; round < 5; round += 1) {
      await Promise.all([
        deliverDueMail(database.db, a, now, quiet),
        deliverDueMail(database.db, b, now, quiet),
      ]);
    }
    const ids = [...a.sent, ...b.sent].map((m) => m.id).filter((id) => id.startsWith('bulk:'));
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });
});
