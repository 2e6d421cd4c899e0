import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, onPostgres } from '../../../tests/helpers/database.ts';
import {
  queryRows,
  statementName,
  STATEMENTS_PER_CONNECTION,
  type DatabaseHandle,
} from './client.ts';
import { users } from './schema/users.ts';

describe.runIf(onPostgres)('statements prepared on PostgreSQL', () => {
  let database: DatabaseHandle;
  // One connection: what it prepared is what pg_prepared_statements shows.
  beforeAll(async () => {
    database = await openTestDatabase(1);
  });
  afterAll(() => database.close());

  const prepared = () =>
    queryRows<{ name: string; statement: string }>(
      database.db,
      sql`select name, statement from pg_prepared_statements order by name`,
    );

  it('parses a statement with parameters once per connection, under the name of its text', async () => {
    const before = await prepared();
    const query = database.db.select({ id: users.id }).from(users).where(eq(users.id, 1));
    const { sql: text } = query.toSQL();
    await query;
    await query;
    const after = await prepared();
    expect(after).toHaveLength(before.length + 1);
    expect(after).toContainEqual({ name: statementName(text), statement: text });
    // Both calls ran the one statement parsed at the first.
    const [runs] = await queryRows<{ runs: number }>(
      database.db,
      sql`select (generic_plans + custom_plans)::int as runs from pg_prepared_statements
        where statement = ${text}`,
    );
    expect(runs).toEqual({ runs: 2 });
  });

  it('keeps `*`, statements without parameters and those with very many unprepared, so that a migration adding a column breaks no older instance', async () => {
    const pool = database.pool;
    if (!pool) throw new Error('PostgreSQL has a pool');
    await pool.query('create table prepared_probe (id integer primary key)');
    await pool.query('insert into prepared_probe values (1)');
    const byStar = 'select * from prepared_probe where id = $1';
    const byName = 'select id from prepared_probe where id = $1';
    expect(await pool.query(byStar, [1])).toMatchObject({ rows: [{ id: 1 }] });
    expect(await pool.query(byName, [1])).toMatchObject({ rows: [{ id: 1 }] });
    const many = `select ${Array.from({ length: 65 }, (_, i) => `$${i + 1}::integer`).join(' + ')} as total`;
    expect((await pool.query(many, Array(65).fill(1))).rows).toEqual([{ total: 65 }]);
    // A value pg turns into JSON by code that can throw.
    const byObject = "select $1::jsonb ->> 'note' as note";
    expect((await pool.query(byObject, [{ note: 'x' }])).rows).toEqual([{ note: 'x' }]);
    const names = (await prepared()).map((row) => row.statement);
    expect(names).not.toContain(byObject);
    expect(names).toContain(byName);
    expect(names).not.toContain(byStar);
    expect(names).not.toContain(many);
    expect(names).not.toContain('insert into prepared_probe values (1)');

    // What a rolling deploy does: a new instance's migration adds a column under an old one.
    await pool.query('alter table prepared_probe add column note text');
    expect(await pool.query(byStar, [1])).toMatchObject({ rows: [{ id: 1, note: null }] });
    expect(await pool.query(byName, [1])).toMatchObject({ rows: [{ id: 1 }] });
  });

  it('sends an upsert on a partial unique index unnamed, so that it works on every call', async () => {
    const pool = database.pool;
    if (!pool) throw new Error('PostgreSQL has a pool');
    await pool.query('create table upsert_probe (user_id integer not null, status text not null)');
    await pool.query(
      "create unique index upsert_probe_pending on upsert_probe (user_id) where status = 'pending'",
    );
    // A named statement gets a generic plan from its sixth call, and that plan finds no index.
    for (let call = 0; call < 8; call += 1) {
      await pool.query(
        'insert into upsert_probe (user_id, status) values ($1, $2) ' +
          'on conflict (user_id) where status = $3 do update set status = excluded.status',
        [1, 'pending', 'pending'],
      );
    }
    expect((await pool.query('select count(*)::int as n from upsert_probe')).rows).toEqual([
      { n: 1 },
    ]);
  });

  it('prepares at most so many statements on a connection, and sends the rest unnamed', async () => {
    // A connection of its own, so that what the other tests prepared does not count.
    const own = await openTestDatabase(1);
    const pool = own.pool;
    if (!pool) throw new Error('PostgreSQL has a pool');
    const held = async () =>
      (await pool.query('select count(*)::int as n from pg_prepared_statements')).rows[0];
    const probe = (i: number) => `select $1::integer + ${i} as probe`;
    try {
      for (let i = 0; i < STATEMENTS_PER_CONNECTION + 20; i += 1) {
        expect((await pool.query(probe(i), [1])).rows).toEqual([{ probe: 1 + i }]);
      }
      expect(await held()).toEqual({ n: STATEMENTS_PER_CONNECTION });
      // What it holds it keeps using: a statement met first is still named, none is added.
      await pool.query(probe(0), [1]);
      expect(await held()).toEqual({ n: STATEMENTS_PER_CONNECTION });
    } finally {
      await own.close();
    }
  });
});
