import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { createPostgresBus, type AppEvent, type EventBus } from './event-bus.ts';

const silent = { warn: () => {}, error: () => {} };

describe.runIf(onPostgres)('the PostgreSQL event bus', () => {
  let database: DatabaseHandle;
  let sender: EventBus;
  let receiver: EventBus;

  beforeAll(async () => {
    database = await openTestDatabase();
    sender = await createPostgresBus(database.pool!, silent);
    receiver = await createPostgresBus(database.pool!, silent);
  });
  afterAll(async () => {
    await sender.close();
    await receiver.close();
    await database.close();
  });

  function collect(count: number): Promise<AppEvent[]> {
    return new Promise((resolve) => {
      const received: AppEvent[] = [];
      const unsubscribe = receiver.subscribe((event) => {
        received.push(event);
        if (received.length < count) return;
        unsubscribe();
        resolve(received);
      });
    });
  }

  it('delivers events published together, in order, to another instance', async () => {
    const events: AppEvent[] = Array.from({ length: 5 }, (_, i) => ({
      type: 'balance',
      userId: i + 1,
      balanceCents: String(i * 100),
    }));
    const arrived = collect(events.length);
    await Promise.all(events.map((event) => sender.publish(event)));
    expect(await arrived).toEqual(events);
  });

  it('splits a burst too large for one NOTIFY and loses none of it', async () => {
    // About 90 bytes each: 500 of them need several 8 kB payloads.
    const events: AppEvent[] = Array.from({ length: 500 }, (_, i) => ({
      type: 'challenge',
      challengeId: i + 1,
      status: 'open',
      audience: 'all',
    }));
    const arrived = collect(events.length);
    await Promise.all(events.map((event) => sender.publish(event)));
    expect(await arrived).toEqual(events);
  });
});
