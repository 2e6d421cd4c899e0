import type { DatabaseHandle } from '#server/db/client.ts';
import { createPostgresBus } from '#server/lib/event-bus.ts';
import { openTestDatabase } from './database.ts';
import { createTestApp, type TestApp } from './test-app.ts';

const silent = { warn: () => {}, error: () => {} };

/**
 * Two apps on one fresh PostgreSQL database, each with its own PostgreSQL event bus, as two
 * server instances would run; everything is closed afterwards, whatever `work` did.
 */
export async function withTwoInstances(
  work: (a: TestApp, b: TestApp, database: DatabaseHandle) => Promise<void>,
): Promise<void> {
  const database = await openTestDatabase();
  if (!database.pool) throw new Error('two instances need PostgreSQL (TEST_DATABASE_URL)');
  const busA = await createPostgresBus(database.pool, silent);
  const busB = await createPostgresBus(database.pool, silent);
  const a = await createTestApp({ database, bus: busA });
  const b = await createTestApp({ database, bus: busB });
  try {
    await work(a, b, database);
  } finally {
    await a.close();
    await b.close();
    await busA.close();
    await busB.close();
    await database.close();
  }
}
