import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#server/db/client.ts';
import { onPostgres, openTestDatabase } from '#tests/helpers/database.ts';
import { gateAdapterPool } from './adapter-pool-gate.ts';

describe.runIf(onPostgres)('the voice adapter’s pool gate', () => {
  let database: DatabaseHandle;
  let pool: pg.Pool;
  let gate: ReturnType<typeof gateAdapterPool>;

  beforeEach(async () => {
    database = await openTestDatabase(2);
    // One connection, so that a client the adapter gives back is the one the next query gets.
    pool = new pg.Pool({ connectionString: database.pool!.options.connectionString, max: 1 });
    gate = gateAdapterPool(pool);
  });
  afterEach(async () => {
    await database.close();
  });

  it('closes the connections the adapter still holds, so the pool can end', async () => {
    const listener = await gate.pool.connect();
    await listener.query('select 1');
    gate.shut();
    gate.releaseAll();
    expect(pool.totalCount).toBe(0);
    await pool.end();
  });

  it('leaves alone a connection the adapter gave back and a query now uses', async () => {
    const listener = await gate.pool.connect();
    listener.release();
    // The adapter is closed while one of its publishes is still on its way, on that connection.
    const publishing = gate.pool.query<{ done: number }>('select 1 as done from pg_sleep(0.2)');
    gate.shut();
    gate.releaseAll();
    expect((await publishing).rows).toEqual([{ done: 1 }]);
    await pool.end();
  });

  it('never completes a connect asked for after shutdown began, and keeps nothing', async () => {
    gate.shut();
    const asked = gate.pool.connect().then(() => 'connected');
    const outcome = await Promise.race([
      asked,
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
    ]);
    expect(outcome).toBe('still waiting');
    expect(pool.totalCount).toBe(0);
    await pool.end();
  });

  it('closes a connection that arrives after shutdown began', async () => {
    const asked = gate.pool.connect().then(() => 'connected');
    gate.shut();
    // The pool finishes opening it; the gate closes it instead of handing it over.
    await new Promise<void>((resolve) => pool.once('acquire', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pool.totalCount).toBe(0);
    expect(
      await Promise.race([asked, new Promise((resolve) => setTimeout(() => resolve('none'), 100))]),
    ).toBe('none');
    await pool.end();
  });
});
