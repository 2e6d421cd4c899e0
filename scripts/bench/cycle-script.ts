// The statements of one challenge cycle exactly as the service layer sends them, turned into a
// pgbench script, so that `bench:settle` can run the same SQL from pgbench's C client. That
// separates what the database needs for a cycle from what our node client adds.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import { createLocalBus } from '../../src/server/lib/event-bus.ts';
import { benchContext, playCycle, poolOf } from './common.ts';

interface Statement {
  sql: string;
  params: unknown[];
}

// The captured challenge's id: far from every other number the statements carry, so that each
// occurrence of it can be told apart and replaced by pgbench's variable.
const MARKER_CHALLENGE_ID = 900_000_001;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A text literal pgbench passes through: it reads `:name` as a variable, even inside quotes. */
function literal(text: string): string {
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return quoted.replace(/:(?=[A-Za-z0-9_])/g, "' || chr(58) || '");
}

/** A parameter as SQL, with the cycle's ids as pgbench variables (`id`, `c`reator, `a`cceptor). */
function expression(value: unknown, variables: Map<string, string>): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') {
    const variable = variables.get(String(value));
    return variable ? `(:${variable})::int` : String(value);
  }
  const text = String(value);
  if (ISO_TIME.test(text)) return 'now()';
  const parts = text.split(/(\d+)/).filter((part) => part !== '');
  const joined = `(${parts
    .map((part) => {
      const variable = variables.get(part);
      return variable ? `(:${variable})::text` : literal(part);
    })
    .join(' || ')})`;
  // A JSON object (a mail's metadata) is sent as text and read as jsonb by its column.
  return isJsonObject(text) ? `${joined}::jsonb` : joined;
}

function isJsonObject(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}

function toScriptLine(statement: Statement, variables: Map<string, string>): string {
  const text = statement.sql.replace(/\$(\d+)/g, (_match, index: string) =>
    expression(statement.params[Number(index) - 1], variables),
  );
  // One line per command; the whitespace folded is layout (and the text of a mail).
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Runs one cycle between the last two of `players` (whose ids must run without gaps) through
 * the service layer, records its statements, and writes them as a pgbench script in `dir`.
 */
export async function writeCycleScript(
  database: DatabaseHandle,
  players: number[],
  dir: string,
): Promise<{ path: string; statements: number }> {
  const first = players[0] ?? 0;
  const last = players.at(-1) ?? 0;
  if (last - first !== players.length - 1) throw new Error('player ids must run without gaps');
  const creator = last;
  const acceptor = last - 1;
  await database.db.execute(
    sql`select setval(pg_get_serial_sequence('challenges', 'id'), ${MARKER_CHALLENGE_ID - 1})`,
  );

  const captured: Statement[] = [];
  const recording = drizzle({
    client: poolOf(database),
    schema,
    casing: 'snake_case',
    logger: { logQuery: (text, params) => captured.push({ sql: text, params }) },
  });
  const ctx = benchContext({ ...database, db: recording }, createLocalBus());
  const id = await playCycle(ctx, creator, acceptor);
  if (id !== MARKER_CHALLENGE_ID) throw new Error(`captured challenge ${id}, not the marker`);

  const variables = new Map([
    [String(id), 'id'],
    [String(creator), 'c'],
    [String(acceptor), 'a'],
  ]);
  // What runs before the creation (the creator's suspension, read afresh) knows no challenge yet.
  const creating = captured.findIndex((statement) => statement.sql.includes('challenge_create'));
  const create = captured[creating];
  if (!create) throw new Error('a cycle no longer creates a challenge');
  const lines = [
    // A creator, and an acceptor who is anyone else, as in the service-layer rounds.
    `\\set c random(${first}, ${last})`,
    `\\set a ${first} + (:c - ${first} + random(1, ${players.length - 1})) % ${players.length}`,
    ...captured.slice(0, creating).map((statement) => `${toScriptLine(statement, variables)};`),
    // The new challenge's id, for the statements after it. The creation answers a row per
    // account it moved, each naming the challenge; it starts with WITH and a data-modifying
    // part, which cannot be a subquery, so `\\aset` keeps its columns from the last row.
    `${toScriptLine(create, variables)} \\aset`,
    `\\set id :challenge_id`,
    ...captured.slice(creating + 1).map((statement) => `${toScriptLine(statement, variables)};`),
  ];
  const path = join(dir, 'cycle.sql');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { path, statements: captured.length };
}

/** Cycles per second, and how many, running `script` with pgbench (`prepared` or `simple`). */
export function pgbenchCycles(
  url: string,
  script: string,
  mode: 'prepared' | 'simple',
  clients: number,
  seconds: number,
): { perSecond: number; cycles: number } {
  let output: string;
  try {
    output = execFileSync(
      'pgbench',
      [
        '-n',
        '-M',
        mode,
        '-f',
        script,
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        url,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`pgbench failed:\n${stderr.split('\n').slice(0, 20).join('\n')}`, {
      cause: error,
    });
  }
  const perSecond = /tps = ([\d.]+)/.exec(output)?.[1];
  const cycles = /number of transactions actually processed: (\d+)/.exec(output)?.[1];
  const failed = /number of failed transactions: (\d+)/.exec(output)?.[1];
  if (!perSecond || !cycles) throw new Error(`could not read pgbench output:\n${output}`);
  if (failed !== undefined && failed !== '0') throw new Error(`pgbench: ${failed} cycles failed`);
  return { perSecond: Number(perSecond), cycles: Number(cycles) };
}
