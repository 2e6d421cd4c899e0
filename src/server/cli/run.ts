import { existsSync } from 'node:fs';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { EnvError, parseEnv, type Env } from '../env.ts';

/**
 * Runs an operator command against the configured database (the same environment as the
 * server), migrated first, and exits with the command's code.
 */
export async function runCommand(
  command: (env: Env, database: DatabaseHandle) => Promise<number>,
): Promise<void> {
  let code = 1;
  try {
    if (existsSync('.env')) process.loadEnvFile('.env');
    const env = parseEnv(process.env);
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      await runMigrations(database);
      code = await command(env, database);
    } finally {
      await database.close();
    }
  } catch (error) {
    process.stderr.write(
      `${error instanceof EnvError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(code);
}
