import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, wrapPglite, type DatabaseHandle } from '#server/db/client.ts';

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * A fresh, migrated database for one test file: a copy of the run's template, on PGlite by
 * default and on PostgreSQL when TEST_DATABASE_URL is set. Closing it drops the copy.
 */
export async function openTestDatabase(poolSize = 10): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (!url || !template) {
    const dump = readFileSync(inject('pgliteTemplate'));
    const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
    return wrapPglite(client);
  }
  const name = `skillstake_t_${randomBytes(6).toString('hex')}`;
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const fileUrl = new URL(url);
  fileUrl.pathname = `/${name}`;
  const handle = openPostgres(fileUrl.toString(), poolSize);
  // pool.end() resolves before its sockets have closed, and a pool gives up its clients' 'error'
  // events while ending them: DROP ... WITH (FORCE) below kills those sockets, and each would
  // raise an 'error' nobody listens to any more. Every client keeps a listener of its own.
  handle.pool?.on('connect', (client) => client.on('error', () => {}));
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl.toString() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
