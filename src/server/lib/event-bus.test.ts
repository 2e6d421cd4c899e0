import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
      availableCents: String(i * 100),
      underReviewCents: '0',
    }));
    const arrived = collect(events.length);
    await Promise.all(events.map((event) => sender.publish(event)));
    expect(await arrived).toEqual(events);
  });

  it('sends the events of one turn of the event loop in one NOTIFY, across its awaits', async () => {
    // A raw listener sees each NOTIFY; the buses see only the events inside.
    const listener = await database.pool!.connect();
    try {
      const payloads: string[] = [];
      listener.on('notification', (message) => payloads.push(message.payload ?? ''));
      await listener.query('LISTEN app_events');
      const first: AppEvent = { type: 'user-changed', userId: 51 };
      const second: AppEvent = { type: 'user-changed', userId: 52 };
      const arrived = collect(2);
      // As a request does: its balances published, a promise settled, then its own events.
      const balances = sender.publish(first);
      await Promise.resolve();
      await Promise.all([balances, sender.publish(second)]);
      expect(await arrived).toEqual([first, second]);
      // The receiver heard them, so the NOTIFY reached the listener too.
      await vi.waitFor(() => expect(payloads).toHaveLength(1));
      expect(JSON.parse(payloads[0] ?? '')).toMatchObject({ events: [first, second] });
    } finally {
      // Closed, not returned: its LISTEN must not ride along into the pool.
      listener.release(true);
    }
  });

  it('delivers an instance its own events at once, and once', async () => {
    const own: AppEvent[] = [];
    const unsubscribe = sender.subscribe((event) => own.push(event));
    const event: AppEvent = { type: 'user-changed', userId: 42 };
    const arrived = collect(1);
    const published = sender.publish(event);
    // Before the NOTIFY has even left: a cache on this instance is current before it answers.
    expect(own).toEqual([event]);
    await published;
    expect(await arrived).toEqual([event]);
    // The copy that came back through this instance's own LISTEN connection was skipped. A
    // second event, published after, proves the first one's echo had its chance to arrive.
    const marker = collect(1);
    await sender.publish({ type: 'user-changed', userId: 43 });
    await marker;
    unsubscribe();
    expect(own).toEqual([event, { type: 'user-changed', userId: 43 }]);
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

  it('tells its own instance that events may have been missed when its connection came back', async () => {
    const missed = new Promise<AppEvent>((resolve) => {
      const unsubscribe = receiver.subscribe((event) => {
        if (event.type !== 'events-missed') return;
        unsubscribe();
        resolve(event);
      });
    });
    // Every listening connection of this database is cut, as a failover would.
    await database.pool!.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    expect(await missed).toEqual({ type: 'events-missed' });
    // And it hears events again.
    const arrived = collect(1);
    await sender.publish({ type: 'user-changed', userId: 7 });
    expect(await arrived).toEqual([{ type: 'user-changed', userId: 7 }]);
  });

  it('gives back the connection a reconnect is opening when it is closed meanwhile', async () => {
    const pool = new pg.Pool({ ...database.pool!.options, application_name: 'bus-closed-early' });
    const bus = await createPostgresBus(pool, silent);
    // The reconnect's request for a connection is held until the bus is closing.
    let reconnectStarted!: () => void;
    const started = new Promise<void>((resolve) => (reconnectStarted = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const connect = pool.connect.bind(pool);
    vi.spyOn(pool, 'connect').mockImplementation(async () => {
      reconnectStarted();
      await held;
      return connect();
    });
    await database.pool!.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'bus-closed-early' and query like 'LISTEN%'`,
    );
    await started;
    const closing = bus.close();
    release();
    await closing;
    // Nothing is still checked out: the pool can end.
    expect(pool.totalCount - pool.idleCount).toBe(0);
    await pool.end();
  });

  it('logs events it could not send and resolves, so a caller that committed is not failed', async () => {
    const pool = new pg.Pool({ ...database.pool!.options, application_name: 'bus-send-fails' });
    const errors: string[] = [];
    const bus = await createPostgresBus(pool, {
      ...silent,
      error: (_fields, message) => errors.push(message),
    });
    const local: AppEvent[] = [];
    bus.subscribe((event) => local.push(event));
    const query = vi.spyOn(pool, 'query').mockRejectedValue(new Error('connection lost'));
    const event: AppEvent = {
      type: 'balance',
      userId: 3,
      balanceCents: '500',
      availableCents: '400',
      underReviewCents: '100',
    };

    await expect(bus.publish(event)).resolves.toBeUndefined();
    expect(query).toHaveBeenCalled();
    expect(errors).toEqual(['events could not reach other instances']);
    // This instance's subscribers had it all the same.
    expect(local).toEqual([event]);
    query.mockRestore();
    await bus.close();
    await pool.end();
  });
});
