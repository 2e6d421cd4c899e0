import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { projectRoot } from '../lib/project-root.ts';
import type { DatabaseHandle, Schema } from './client.ts';

export const MIGRATIONS_DIR = join(projectRoot(), 'migrations');

// Any constant works; it only has to be the same for every instance of this application.
const MIGRATION_LOCK_KEY = 7_294_117_301;

/**
 * Applies the committed SQL migrations. On PostgreSQL an advisory lock makes concurrent starts
 * of several instances apply them once, one after another.
 */
export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  if (!handle.pool) {
    await migratePglite(handle.db as PgliteDatabase<Schema>, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await handle.pool.connect();
  try {
    const db = drizzleNodePg({ client });
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      await migrateNodePg(db, { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  } finally {
    client.release();
  }
}
