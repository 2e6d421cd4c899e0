import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DatabaseHandle } from '#server/db/client.ts';
import { openTestDatabase } from '#tests/helpers/database.ts';

/**
 * The money functions' current text lives in ./sql, one file per function, so that nobody has to
 * replay the migrations in their head: the migrated database (PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set) must hold exactly those texts, and no money function without one.
 */
const SQL_DIR = new URL('./sql/', import.meta.url);

/** A file's text without its leading comment lines: what pg_get_functiondef prints. */
function definitionIn(file: string): string {
  const lines = readFileSync(new URL(file, SQL_DIR), 'utf8').split('\n');
  return lines.slice(lines.findIndex((line) => !line.startsWith('--'))).join('\n');
}

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('the money functions in PostgreSQL', () => {
  it('are each the text of their file under features/ledger/sql, and every file is one of them', async () => {
    const rows = await queryRows<{ name: string; definition: string }>(
      database.db,
      sql`select p.proname as name, pg_get_functiondef(p.oid) as definition
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname ~ '^(ledger|challenge)_'
        order by p.proname`,
    );
    const files = readdirSync(SQL_DIR)
      .filter((name) => name.endsWith('.sql'))
      .sort();
    expect(rows.map((row) => `${row.name}.sql`)).toEqual(files);
    for (const row of rows) {
      expect(row.definition, `${row.name}.sql differs from the database`).toBe(
        definitionIn(`${row.name}.sql`),
      );
    }
    expect(files).toEqual(expect.arrayContaining(['ledger_post.sql', 'challenge_accept.sql']));
  });
});
