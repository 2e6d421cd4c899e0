import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres, wrapPglite } from '../src/server/db/client.ts';
import { runMigrations } from '../src/server/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, as a tarball on disk, copied by every test file. */
    pgliteTemplate: string;
    /** With TEST_DATABASE_URL: a migrated PostgreSQL database that test files clone. */
    postgresTemplate: string | null;
  }
}

function adminUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed.toString();
}

/**
 * Migrates one template database for the whole run (PGlite takes seconds to start and migrate),
 * then each test file starts from a copy of it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = mkdtempSync(join(tmpdir(), 'skillstake-test-'));
  const template = join(folder, 'pglite-template.tar');
  const client = await PGlite.create();
  const handle = wrapPglite(client);
  await runMigrations(handle);
  const dump = await client.dumpDataDir('none');
  writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', template);

  const url = process.env.TEST_DATABASE_URL;
  let templateName: string | null = null;
  if (url) {
    templateName = `skillstake_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl(url) });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${templateName}`);
    await admin.query(`CREATE DATABASE ${templateName}`);
    await admin.end();
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${templateName}`;
    const migrated = openPostgres(templateUrl.toString(), 1);
    await runMigrations(migrated);
    await migrated.close();
  }
  project.provide('postgresTemplate', templateName);

  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (url && templateName) {
      const admin = new pg.Client({ connectionString: adminUrl(url) });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await admin.end();
    }
  };
}
