import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createAppContext, type AppContext } from '../../src/server/context.ts';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import { sessions } from '../../src/server/db/schema/sessions.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { parseEnv } from '../../src/server/env.ts';
import { acceptChallenge, createChallenge } from '../../src/server/features/challenges/service.ts';
import { confirmResult } from '../../src/server/features/challenges/review.ts';
import { hashToken } from '../../src/server/features/accounts/sessions.ts';
import type { Ledger } from '../../src/server/features/ledger/ledger.ts';
import type { EventBus } from '../../src/server/lib/event-bus.ts';
import { submitScores } from '../../src/server/features/challenges/results.ts';

/** The server to benchmark against: BENCH_PG_URL, or the local one with trust authentication. */
export const PG_ADMIN_URL =
  process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withTemporaryDatabase<T>(
  prefix: string,
  work: (url: string) => Promise<T>,
): Promise<T> {
  const name = `${prefix}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    return await work(databaseUrl(name));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

function runPgbench(url: string, clients: number, seconds: number): number {
  const output = execFileSync(
    'pgbench',
    ['-c', String(clients), '-j', '2', '-T', String(seconds), url],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const match = /tps = ([\d.]+)/.exec(output);
  if (!match?.[1]) throw new Error(`could not read pgbench output:\n${output}`);
  return Number(match[1]);
}

/** pgbench's TPC-B-like transaction rate with `clients` clients for `seconds` seconds. */
export async function pgbenchTps(clients: number, seconds: number): Promise<number> {
  return withTemporaryDatabase('skillstake_pgbench', async (url) => {
    execFileSync('pgbench', ['-i', '-s', '1', '-q', url], { stdio: 'ignore' });
    return runPgbench(url, clients, seconds);
  });
}

/**
 * Gives `work` a function that runs pgbench's TPC-B on one initialised database and returns its
 * transactions per second, so that a benchmark can alternate its own rounds with pgbench's: on
 * a shared machine the load changes from minute to minute, and only rounds run side by side
 * compare fairly.
 */
export async function withPgbench<T>(
  work: (tps: (clients: number, seconds: number) => number) => Promise<T>,
): Promise<T> {
  return withTemporaryDatabase('skillstake_pgbench', async (url) => {
    execFileSync('pgbench', ['-i', '-s', '1', '-q', url], { stdio: 'ignore' });
    return work((clients, seconds) => runPgbench(url, clients, seconds));
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? Number.NaN;
  return ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

export function table(rows: Array<Record<string, string | number>>): string {
  const columns = Object.keys(rows[0] ?? {});
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((row) => line(columns.map((c) => String(row[c])))),
  ].join('\n');
}

/** The pg pool of a PostgreSQL handle: the benchmarks run on PostgreSQL only. */
export function poolOf(database: DatabaseHandle): pg.Pool {
  if (!database.pool) throw new Error('this benchmark needs PostgreSQL');
  return database.pool;
}

/**
 * What the services receive, built as `buildApp` builds it, for benchmarks below the HTTP layer;
 * `wrapLedger` lets a benchmark watch the ledger's calls.
 */
export function benchContext(
  database: DatabaseHandle,
  bus: EventBus,
  wrapLedger?: (ledger: Ledger) => Ledger,
): AppContext {
  return createAppContext({
    env: parseEnv({ LOG_LEVEL: 'silent' }),
    database,
    bus,
    ...(wrapLedger ? { wrapLedger } : {}),
  });
}

/** Two different players, at random. */
export function randomPair(players: number[]): [creator: number, acceptor: number] {
  const creatorIndex = Math.floor(Math.random() * players.length);
  const offset = 1 + Math.floor(Math.random() * (players.length - 1));
  return [players.at(creatorIndex) ?? 0, players.at((creatorIndex + offset) % players.length) ?? 0];
}

/**
 * One whole challenge cycle through the service layer, as the HTTP routes run it: a $5
 * challenge created, accepted, reported, and confirmed by the loser, which pays the winner's
 * credit out of review (DESIGN §10). Returns the challenge's id. Each of the four service calls
 * runs inside `step`, as each would in a request of its own.
 */
export async function playCycle(
  ctx: AppContext,
  creator: number,
  acceptor: number,
  creatorWins = true,
  step: <T>(call: () => Promise<T>) => Promise<T> = (call) => call(),
): Promise<number> {
  const id = await step(() =>
    createChallenge(ctx, creator, {
      game: 'Chess',
      amount: 5,
      gamerTag: 'bench',
      phoneNumber: '5550100000',
      console: 'PC',
    }),
  );
  await step(() => acceptChallenge(ctx, id, acceptor));
  await step(() =>
    submitScores(ctx, id, creator, {
      creatorScore: creatorWins ? 3 : 1,
      acceptorScore: creatorWins ? 1 : 3,
      screenshot: 'https://example.com/result.png',
    }),
  );
  await step(() => confirmResult(ctx, id, acceptor));
  return id;
}

/** Inserts `count` players (with an email, as most have) in bulk and returns their ids. */
export async function seedPlayers(
  database: DatabaseHandle,
  count: number,
  prefix = 'bench',
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += 1000) {
    const rows = await database.db
      .insert(users)
      .values(
        Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
          username: `${prefix}_${start + i}`,
          passwordHash: 'not-a-password-hash',
          email: `${prefix}_${start + i}@example.com`,
          phoneNumber: '5550100000',
          isOver18: true,
        })),
      )
      .returning({ id: users.id });
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** Opens a session for each user, as a login would, and returns the cookie values. */
export async function seedSessions(database: DatabaseHandle, userIds: number[]): Promise<string[]> {
  const now = new Date();
  const tokens = userIds.map(() => randomBytes(32).toString('base64url'));
  for (let start = 0; start < userIds.length; start += 1000) {
    await database.db.insert(sessions).values(
      userIds.slice(start, start + 1000).map((userId, i) => ({
        tokenHash: hashToken(tokens[start + i] ?? ''),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
      })),
    );
  }
  return tokens;
}

/** The value at quantile `q` (0..1) of already sorted numbers. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** Resident memory of the process, from /proc (Linux), in bytes. */
  rssBytes(): number;
  /** CPU time the process has used so far (user + system), from /proc (Linux), in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Starts `node <script>` with `env` on a free port and waits until `readyPath` answers 200.
 * `nodeFlags` go before the script (`--cpu-prof` for a profile written when it stops).
 */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  readyPath: string,
  nodeFlags: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'skillstake-bench-'));
  // The server writes its log to a file, as a deployment does: read through a pipe, a server
  // logging each request at `info` (megabytes a second) would cost this process, which also
  // drives the load, the CPU of reading it.
  const logFile = join(dataDir, 'server.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeFlags, script], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const output = () => readFileSync(logFile, 'utf8').slice(0, 20_000);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited during start:\n${output()}`);
    const ok = await fetch(`${baseUrl}${readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${script} did not become ready:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const pid = child.pid ?? 0;
  return {
    baseUrl,
    pid,
    rssBytes: () => {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return Number(match?.[1] ?? 0) * 1024;
    },
    cpuSeconds: () => {
      // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in ticks.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives each user a wallet holding `cents`, as if each had made one card deposit: one transfer
 * and two postings per user, written in bulk SQL so that the ledger invariants hold. For a fresh
 * database: the card account's running balances assume it had no deposits before.
 */
export async function seedFundedWallets(
  database: DatabaseHandle,
  userIds: number[],
  cents: bigint,
): Promise<void> {
  const ids = sql.join(
    userIds.map((id) => sql`(${id}::int)`),
    sql`, `,
  );
  await database.db.execute(sql`
    with players (id) as (values ${ids}),
    card as (
      insert into ledger_accounts (key, kind, allow_negative, balance_cents)
      values ('external:card', 'external', true, 0)
      on conflict (key) do update set key = excluded.key
      returning id),
    wallets as (
      insert into ledger_accounts (key, kind, user_id, allow_negative, balance_cents)
      select 'user:' || id, 'user', id, false, ${String(cents)}::bigint from players
      returning id, user_id),
    transfers as (
      insert into ledger_transfers (idempotency_key, kind, payload_hash)
      select 'bench-seed:' || id, 'deposit', 'bench-seed' from players
      returning id, idempotency_key)
    insert into ledger_postings (transfer_id, account_id, amount_cents, balance_after_cents)
    select t.id, w.id, ${String(cents)}::bigint, ${String(cents)}::bigint
      from transfers t join wallets w on t.idempotency_key = 'bench-seed:' || w.user_id
    union all
    select t.id, card.id, -${String(cents)}::bigint,
      -${String(cents)}::bigint * row_number() over (order by t.id)
      from transfers t, card`);
  await database.db.execute(sql`
    update ledger_accounts set balance_cents = (
      select coalesce(sum(amount_cents), 0) from ledger_postings p
      where p.account_id = ledger_accounts.id)
    where key = 'external:card'`);
}

const TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name: state is [0], ppid [1], utime [11]. */
function statFields(pid: string): { command: string; fields: string[] } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    return {
      command: text.slice(text.indexOf('(') + 1, close),
      fields: text.slice(close + 2).split(' '),
    };
  } catch {
    // The process ended between listing and reading.
    return undefined;
  }
}

export interface CpuSnapshot {
  /** The machine's busy and total time over all cores, from /proc/stat, in seconds. */
  machineBusy: number;
  machineTotal: number;
  /** PostgreSQL's server processes, ended ones included (their time is the postmaster's). */
  postgres: number;
  /** This process (the benchmark's own clients). */
  bench: number;
}

/**
 * Where the machine's CPU time went so far (Linux). Differences of two snapshots say, for a
 * round, how much each side used: on a machine whose cores the server and PostgreSQL share,
 * that is what bounds a rate.
 */
export function cpuSnapshot(): CpuSnapshot {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1) ?? [];
  const ticks = cpu.map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  // idle and iowait are the 4th and 5th figures.
  const busy = total - (ticks[3] ?? 0) - (ticks[4] ?? 0);
  let postgres = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = statFields(pid);
    if (stat?.command !== 'postgres') continue;
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(stat.fields[i]));
    const parent = statFields(stat.fields[1] ?? '');
    // The postmaster's children's time counts each backend that ended and was waited for.
    const isPostmaster = parent?.command !== 'postgres';
    postgres += (utime ?? 0) + (stime ?? 0) + (isPostmaster ? (cutime ?? 0) + (cstime ?? 0) : 0);
  }
  const own = process.cpuUsage();
  return {
    machineBusy: busy / TICKS_PER_SECOND,
    machineTotal: total / TICKS_PER_SECOND,
    postgres: postgres / TICKS_PER_SECOND,
    bench: (own.user + own.system) / 1_000_000,
  };
}
