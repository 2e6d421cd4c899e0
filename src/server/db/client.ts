import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type ExtractTablesWithRelations, type SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>;
/** Either the database or an open transaction: repository functions accept both. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: 'pglite' | 'postgres';
  /** The pg pool when running on PostgreSQL: LISTEN/NOTIFY needs its own connections. */
  readonly pool: pg.Pool | undefined;
  close(): Promise<void>;
}

// Keep 64-bit integers (cents, counts) exact: node-postgres returns int8 as text by default.
// Set on our pool only, not globally, so other users of `pg` in the process are unaffected.
const exactTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Statements that are never prepared by name, because a prepared one can fail where the same text
 * sent unnamed works, or would only take a connection's room:
 * - columns taken from `*` (`select *`, `c.*`, `returning *`; `count(*)` does not match): a
 *   migration that adds a column to what it reads makes PostgreSQL refuse an older instance's
 *   prepared plan ("cached plan must not change result type");
 * - `on conflict (...) where ...`: from its sixth call PostgreSQL may plan a named statement once
 *   for any values, and such a generic plan cannot match a parameter in the `where` to the
 *   partial unique index it names ("there is no unique or exclusion constraint matching the ON
 *   CONFLICT specification"). An unnamed statement is always planned with its values;
 * - `declare` (an export's cursor): its name is new each time, and so is its text.
 */
const UNPREPARED = [
  /(?:^|[\s,.(])\*\s*(?:,|from\b|$)|\breturning\s+\*/i,
  /\bon\s+conflict\s*\((?:[^()]|\([^()]*\))*\)\s*where\b/i,
  /^\s*declare\b/i,
];

/**
 * How many statements one connection prepares. PostgreSQL keeps each until the connection closes,
 * at up to about 200 KiB for the challenge list's (measured with `pg_backend_memory_contexts`).
 * The statements a server sends over and over (a challenge cycle's, a page's) are the first a
 * connection meets and number a few dozen; texts that vary with the request (the list's filters,
 * the lengths of `in (...)` lists) would otherwise add one each, as many as callers can vary them.
 * Past this many, a connection sends new texts unnamed, as before.
 */
export const STATEMENTS_PER_CONNECTION = 100;

/** Past this many parameters a statement is sent unnamed: such texts vary with their input. */
const MOST_PARAMETERS = 64;

/**
 * Whether pg sends a parameter without code that can throw: text, numbers, booleans, dates,
 * bytes, and arrays of those. Any other object is turned into JSON or its own `toPostgres`, and
 * when that throws, pg 8 closes the named statement it was binding while still counting it as
 * prepared: every later call of the text on that connection would fail. Such a call goes unnamed.
 */
function sentAsIs(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (value instanceof Date || ArrayBuffer.isView(value)) return true;
  return Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object');
}

const statementNames = new Map<string, string | null>();
const NAMES_REMEMBERED = 5_000;

/**
 * The name a statement's text is prepared under, the same on every connection and instance; null
 * for a statement that must not be prepared (see above).
 */
export function statementName(text: string): string | null {
  const known = statementNames.get(text);
  if (known !== undefined) return known;
  const name = UNPREPARED.some((pattern) => pattern.test(text))
    ? null
    : `s${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
  // Kept for the texts met first, which are mostly the ones sent over and over; past that, a
  // name costs a hash.
  if (statementNames.size < NAMES_REMEMBERED) statementNames.set(text, name);
  return name;
}

/**
 * A connection that names each parameterised statement after its text, so that PostgreSQL
 * parses and plans it once per connection instead of on every call (decision 22). Statements
 * without parameters keep the simple protocol (a migration's file holds several); those in
 * `UNPREPARED`, those with more than `MOST_PARAMETERS`, those with a value pg serialises by code
 * that can throw (`sentAsIs`) and those met once the connection holds `STATEMENTS_PER_CONNECTION`
 * go unnamed.
 */
class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  // pg's `query` has a dozen overloads, called as `(text | config | submittable, values?,
  // callback?)`; this passes every call through as it came, but for the name of a plain query.
  override query(...args: unknown[]): never {
    const [first, values] = args;
    const config: { text?: unknown; name?: unknown; values?: unknown; submit?: unknown } =
      typeof first === 'string' ? { text: first } : typeof first === 'object' && first ? first : {};
    // pg's own rule: values given beside the query take the place of the query's.
    const parameters = Array.isArray(values) ? values : config.values;
    if (
      typeof config.text === 'string' &&
      config.name === undefined &&
      // A submittable (a cursor, a stream) runs itself; a copy of it would not.
      typeof config.submit !== 'function' &&
      Array.isArray(parameters) &&
      parameters.length > 0 &&
      parameters.length <= MOST_PARAMETERS &&
      parameters.every(sentAsIs)
    ) {
      const name = statementName(config.text);
      if (
        name !== null &&
        (this.prepared.has(name) || this.prepared.size < STATEMENTS_PER_CONNECTION)
      ) {
        this.prepared.add(name);
        args[0] = { ...config, name };
      }
    }
    return (super.query as (...callArgs: unknown[]) => never)(...args);
  }
}

export function openPostgres(
  url: string,
  poolSize = 10,
  onIdleError: (error: Error) => void = () => {},
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: exactTypes,
    Client: PreparingClient,
  });
  // An idle connection can fail (a database restart, a failover). The pool drops it by itself;
  // without a listener the 'error' event would crash the process.
  pool.on('error', onIdleError);
  const db = drizzleNodePg({ client: pool, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'postgres',
    pool,
    close: () => pool.end(),
  };
}

/** Wraps an already open PGlite instance (tests hand in an in-memory one). */
export function wrapPglite(client: PGlite, onClose: () => void = () => {}): DatabaseHandle {
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    pool: undefined,
    close: async () => {
      await client.close();
      onClose();
    },
  };
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite cannot be shared between processes: two writers on one data directory silently lose
 * data. A lock file holding our PID keeps a second process out; a lock left by a dead process is
 * taken over.
 */
const lockedHere = new Set<string>();

function lockDataDirectory(lockPath: string): () => void {
  if (lockedHere.has(lockPath))
    throw new Error(`The embedded database at ${lockPath} is already open in this process`);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      lockedHere.add(lockPath);
      return () => {
        lockedHere.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock written by a process that no longer runs is stale. Our own PID in it means a
      // previous run under the same PID (PID 1 in every container), so it is stale too.
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processIsAlive(holder)) {
        throw new Error(
          `The embedded database in ${lockPath.replace(/\.lock$/, '')} is in use by process ${holder}. ` +
            'Only one server can use it at a time; use PostgreSQL (DATABASE_URL) for several instances.',
          { cause: error },
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

export async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  const root = resolve(dataDir);
  mkdirSync(root, { recursive: true });
  const unlock = lockDataDirectory(join(root, 'pglite.lock'));
  try {
    const client = await PGlite.create(join(root, 'pglite'));
    return wrapPglite(client, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  onIdleError?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, 10, options.onIdleError)
    : openEmbedded(options.dataDir);
}

/**
 * Runs raw SQL and returns its rows. Both drivers answer with `{ rows }`; the generic database
 * type cannot know which driver it holds, hence the one cast here.
 */
export async function queryRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * An array of `values` as SQL, one typed parameter each: both drivers pass scalars alike, while
 * array parameters each would serialise in its own way. An empty list is an empty array.
 */
export function sqlArray(values: Array<string | number | boolean | null>, type: string): SQL {
  const cast = sql.raw(type);
  return sql`array[${sql.join(
    values.map((value) => sql`${value}::${cast}`),
    sql`, `,
  )}]::${cast}[]`;
}

/**
 * The rows of `query`, `batchSize` at a time, for an answer too long to hold in memory (a CSV
 * export). A cursor WITH HOLD makes the database run the query once, keep the result on its side
 * (on disk past `work_mem`) and hand it out a batch per FETCH, with no transaction open while the
 * caller consumes: a slow download holds no lock and no snapshot. The cursor belongs to one
 * session: on PostgreSQL one connection of the pool, held until the rows are read or the caller
 * stops early (a `return` or a throw closes the cursor and gives the connection back); PGlite has
 * a single session, where other statements run between the fetches.
 */
export async function* cursorRows<T>(
  handle: DatabaseHandle,
  query: SQL,
  batchSize = 500,
): AsyncGenerator<T[], void, undefined> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`a batch is a positive number of rows, not ${batchSize}`);
  }
  const client = handle.pool ? await handle.pool.connect() : undefined;
  const db: Executor = client
    ? (drizzleNodePg({ client, schema, casing: 'snake_case' }) as unknown as Database)
    : handle.db;
  const cursor = sql.identifier(`export_${randomBytes(8).toString('hex')}`);
  let declared = false;
  let failed = false;
  try {
    await db.execute(sql`declare ${cursor} no scroll cursor with hold for ${query}`);
    declared = true;
    for (;;) {
      const rows = await queryRows<T>(
        db,
        sql`fetch forward ${sql.raw(String(batchSize))} from ${cursor}`,
      );
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
    }
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await endCursor(db, declared ? cursor : undefined, client, failed);
  }
}

/**
 * Closes the cursor, if one was declared, and gives the connection back. A connection whose
 * cursor could not be closed is destroyed rather than lent again. A failure to close is reported
 * only when nothing failed before it: the first failure is the one worth reading.
 */
async function endCursor(
  db: Executor,
  cursor: ReturnType<typeof sql.identifier> | undefined,
  client: pg.PoolClient | undefined,
  failed: boolean,
): Promise<void> {
  let closeError: unknown;
  if (cursor) {
    try {
      await db.execute(sql`close ${cursor}`);
    } catch (error) {
      closeError = error;
    }
  }
  client?.release(closeError instanceof Error ? closeError : undefined);
  if (closeError !== undefined && !failed) throw closeError;
}
