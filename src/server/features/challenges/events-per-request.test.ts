import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { createPostgresBus, type AppEvent, type EventBus } from '#server/lib/event-bus.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';

/**
 * Each step of a match sends the events it publishes (balances, notifications, the challenge's
 * change) to the other instances in one NOTIFY (decision 22): a NOTIFY is a transaction of its
 * own, and three a request were most of what an HTTP cycle cost PostgreSQL beyond its money.
 */
describe.runIf(onPostgres)('a challenge request on several instances', () => {
  let t: TestApp;
  let bus: EventBus;
  let listener: pg.PoolClient;
  const notifies: Array<{ events: AppEvent[] }> = [];

  beforeAll(async () => {
    const database = await openTestDatabase();
    bus = await createPostgresBus(database.pool!, { warn: () => {}, error: () => {} });
    t = await createTestApp({ database, bus });
    listener = await database.pool!.connect();
    listener.on('notification', (message) => {
      notifies.push(JSON.parse(message.payload ?? '{}') as { events: AppEvent[] });
    });
    await listener.query('LISTEN app_events');
  });
  afterAll(async () => {
    // Closed, not returned: its LISTEN must not ride along into the pool.
    listener.release(true);
    await t.close();
    await bus.close();
    await t.database.close();
  });

  /** The NOTIFYs `step` caused, once its answer is in (the answer waits for them to leave). */
  async function notifiesOf(step: () => Promise<unknown>) {
    // A marker sent after the step: once it is heard, every NOTIFY before it has been.
    const before = notifies.length;
    await step();
    const marker: AppEvent = { type: 'user-changed', userId: -notifies.length - 1 };
    await bus.publish(marker);
    await expect.poll(() => notifies.at(-1)?.events).toContainEqual(marker);
    return notifies.slice(before, -1).map((notify) => notify.events.map((event) => event.type));
  }

  it('sends each step’s events in one NOTIFY: create, accept, report, confirm', async () => {
    const creator = await signUp(t.app);
    const acceptor = await signUp(t.app);
    await fund(t.database, creator.user.id, 10_000n);
    await fund(t.database, acceptor.user.id, 10_000n);
    let id = 0;
    const body = {
      game: 'Chess',
      amount: 10,
      gamerTag: 'g',
      phoneNumber: '5550100000',
      console: 'PC',
    };

    expect(
      await notifiesOf(async () => {
        id = (await creator.agent.post('/api/challenges', body)).json<ChallengeView>().id;
      }),
    ).toEqual([['balance', 'challenge']]);
    expect(await notifiesOf(() => acceptor.agent.post(`/api/challenges/${id}/accept`))).toEqual([
      ['balance', 'notification', 'challenge'],
    ]);
    expect(
      await notifiesOf(() =>
        creator.agent.post(`/api/challenges/${id}/submit`, {
          creatorScore: 3,
          acceptorScore: 1,
          screenshot: 'https://example.com/result.png',
        }),
      ),
    ).toEqual([['balance', 'notification', 'challenge']]);
    expect(await notifiesOf(() => acceptor.agent.post(`/api/challenges/${id}/confirm`))).toEqual([
      ['balance', 'notification', 'challenge'],
    ]);
    await expectLedgerHealthy(t.database);
  });
});
