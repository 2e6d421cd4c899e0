import type pg from 'pg';

/**
 * The adapter opens its LISTEN connection in the background, at start-up and after every failure,
 * and only gives back the one it has finished setting up. A connection still being set up when
 * the adapter closes would be kept for ever, and the pool could never end: shutdown would hang.
 * Through this gate, connections still out after the adapter closed are closed here, and one asked
 * for after that is closed on arrival while the adapter's request never completes: an unsettled
 * promise holds no timer, so the adapter's retry loop stops there instead of re-arming itself.
 */
export function gateAdapterPool(pool: pg.Pool): {
  pool: pg.Pool;
  shut(): void;
  releaseAll(): void;
} {
  let shut = false;
  // What the pool has handed out and not yet taken back, from its own events. A client can be
  // given back (its connection failed) before the adapter's `await connect()` even resumes, and
  // one the adapter gave back goes on to serve other queries: only the pool knows what is out.
  const checkedOut = new Set<pg.PoolClient>();
  // Of those, the ones the adapter took through connect() and still holds.
  const held = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client as pg.PoolClient));
  pool.on('release', (_error, client) => {
    checkedOut.delete(client as pg.PoolClient);
    held.delete(client as pg.PoolClient);
  });
  const never = () => new Promise<never>(() => {});
  const gated = {
    query: pool.query.bind(pool),
    connect: async (): Promise<pg.PoolClient> => {
      if (shut) return never();
      const client = await pool.connect();
      const out = checkedOut.has(client);
      if (shut) {
        if (out) client.release(true);
        return never();
      }
      // A client already given back is dead: the adapter's first query on it fails, and it
      // opens another connection, as after any failure.
      if (out) held.add(client);
      return client;
    },
  };
  return {
    // The adapter uses nothing of the pool but connect() and query().
    pool: gated as unknown as pg.Pool,
    shut: () => {
      shut = true;
    },
    releaseAll: () => {
      for (const client of held) client.release(true);
    },
  };
}
