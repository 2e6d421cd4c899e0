// npm run bench:settle — full challenge cycles (create, accept, report, confirm) per second on
// PostgreSQL with 8 concurrent clients, two ways: through the service layer (createChallenge,
// acceptChallenge, submitScores, confirmResult: the functions the HTTP routes call, with the
// PostgreSQL event bus a deployment uses), and through HTTP, as players' browsers would, against
// the built server; beside the same cycle's SQL run by pgbench, and pgbench's TPC-B, with the
// same client count; then the ledger invariants and a recount of every wallet. Rounds of each
// alternate, so that all see the same machine. Prints a table; exits non-zero only if something
// broke (errors, invariants), never for slowness. `BENCH_HISTORY=1000` first gives every player
// 1,000 earlier results, as a long-standing player has: the records each response shows are read
// from them. `BENCH_PROFILE=1` also takes a CPU profile of the server over the whole run and
// prints where its time went.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import {
  openPostgres,
  queryRows,
  sqlArray,
  type DatabaseHandle,
} from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { challenges } from '../../src/server/db/schema/challenges.ts';
import type { AppContext } from '../../src/server/context.ts';
import { checkLedgerInvariants } from '../../src/server/features/ledger/invariants.ts';
import { createPostgresBus, type EventBus } from '../../src/server/lib/event-bus.ts';
import {
  benchContext,
  median,
  playCycle,
  poolOf,
  randomPair,
  seedFundedWallets,
  seedPlayers,
  seedSessions,
  startProcess,
  cpuSnapshot,
  type CpuSnapshot,
  table,
  withPgbench,
  withTemporaryDatabase,
  type ServerProcess,
} from './common.ts';
import { formatProfile, summarizeProfile } from './cpu-profile.ts';
import { pgbenchCycles, writeCycleScript } from './cycle-script.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 0);
const PROFILE = process.env.BENCH_PROFILE === '1';
const PLAYERS = 400;
const CORES = availableParallelism();
const START_CENTS = 100_000_000n;

interface Round {
  cycles: number;
  errors: number;
  seconds: number;
}

/** `CLIENTS` players at once, each running whole cycles between two random players. */
async function runCycles(ctx: AppContext, players: number[]): Promise<Round> {
  let cycles = 0;
  let errors = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < deadline) {
        const [creator, acceptor] = randomPair(players);
        try {
          await playCycle(ctx, creator, acceptor, Math.random() < 0.5);
          cycles += 1;
        } catch (error) {
          errors += 1;
          if (errors === 1) process.stderr.write(`first error: ${String(error)}\n`);
        }
      }
    }),
  );
  return { cycles, errors, seconds: (performance.now() - started) / 1000 };
}

/**
 * `CLIENTS` browsers at once, each playing whole cycles between two random players through the
 * API (the acceptor confirms the creator's report, as in `playCycle`), and the ledger transfers
 * those cycles committed.
 */
async function runHttpCycles(
  baseUrl: string,
  database: DatabaseHandle,
  players: number[],
  cookies: Map<number, string>,
): Promise<Round & { transfers: number }> {
  const call = async (userId: number, path: string, body?: object) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        cookie: `sid=${cookies.get(userId) ?? ''}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : null,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as { id: number };
  };
  const transfersNow = async () =>
    Number(
      (
        await queryRows<{ count: string }>(
          database.db,
          sql`select count(*)::text as count from ledger_transfers`,
        )
      )[0]?.count,
    );
  const before = await transfersNow();
  let cycles = 0;
  let errors = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < deadline) {
        const [creator, acceptor] = randomPair(players);
        const creatorWins = Math.random() < 0.5;
        try {
          const { id } = await call(creator, '/api/challenges', {
            game: 'Chess',
            amount: 5,
            gamerTag: 'bench',
            phoneNumber: '5550100000',
            console: 'PC',
          });
          await call(acceptor, `/api/challenges/${id}/accept`);
          await call(creator, `/api/challenges/${id}/submit`, {
            creatorScore: creatorWins ? 3 : 1,
            acceptorScore: creatorWins ? 1 : 3,
            screenshot: 'https://example.com/result.png',
          });
          await call(acceptor, `/api/challenges/${id}/confirm`);
          cycles += 1;
        } catch (error) {
          errors += 1;
          if (errors === 1) process.stderr.write(`first error: ${String(error)}\n`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { cycles, errors, seconds, transfers: (await transfersNow()) - before };
}

interface LockWaits {
  /** Waiting for a row another transaction holds (`transactionid`, `tuple`): the house's fee
   * account, which every settlement credits, would show here. */
  rows: number;
  /** Waiting for the database-wide lock a transaction that sends NOTIFY takes to commit. */
  notify: number;
  /** Any other lock. */
  other: number;
}

/**
 * Samples PostgreSQL's sessions on the benchmark's database every 10 ms for `ms`: of the active
 * ones, the shares waiting for each kind of lock.
 */
async function sampleLockWaits(url: string, ms: number): Promise<LockWaits> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let active = 0;
  const waits = { rows: 0, notify: 0, other: 0 };
  try {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ active: number } & LockWaits>(
        `select count(*)::int as active,
           count(*) filter (where wait_event in ('transactionid', 'tuple'))::int as rows,
           count(*) filter (where wait_event = 'object')::int as notify,
           count(*) filter (where wait_event_type = 'Lock'
             and wait_event not in ('transactionid', 'tuple', 'object'))::int as other
         from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      active += rows[0]?.active ?? 0;
      waits.rows += rows[0]?.rows ?? 0;
      waits.notify += rows[0]?.notify ?? 0;
      waits.other += rows[0]?.other ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await client.end();
  }
  const share = (count: number) => (active === 0 ? 0 : count / active);
  return { rows: share(waits.rows), notify: share(waits.notify), other: share(waits.other) };
}

/**
 * Gives each player `matches` settled results from a month ago, half as creator and half as
 * acceptor, against the players after them in turn, written straight into `challenges` (their
 * money is not in the ledger: only the records and the lists read them). Returns how many.
 */
async function seedHistory(
  database: DatabaseHandle,
  players: number[],
  matches: number,
): Promise<number> {
  const perSide = Math.floor(matches / 2);
  if (perSide === 0) return 0;
  await database.db.execute(sql`
    with p as (
      select u.id, u.ord - 1 as i, count(*) over () as n
      from unnest(${sqlArray(players, 'integer')}) with ordinality as u(id, ord)
    ),
    pairs as (
      select p.id as creator_id, q.id as acceptor_id, k, k % 2 = 0 as creator_won
      from p cross join generate_series(1, ${perSide}::int) k
        join p q on q.i = (p.i + 1 + (k - 1) % (p.n - 1)) % p.n
    )
    insert into challenges (creator_id, acceptor_id, winner_id, submitted_by, amount_cents, game,
      gamer_tag, phone_number, console, status, creator_score, acceptor_score, prize_cents,
      fee_cents, created_at, updated_at, accepted_at, completed_at, released_at, release_cause)
    select creator_id, acceptor_id, case when creator_won then creator_id else acceptor_id end,
      creator_id, 500, 'Chess', 'bench', '5550100000', 'PC', 'completed',
      case when creator_won then 3 else 1 end, case when creator_won then 1 else 3 end, 1000, 50,
      now() - interval '30 days', now() - interval '30 days', now() - interval '30 days',
      now() - interval '30 days', now() - interval '30 days', 'review_ended'
    from pairs`);
  await database.db.execute(sql`analyze`);
  return perSide * players.length;
}

async function check(database: DatabaseHandle, cycles: number, players: number): Promise<string[]> {
  const problems = [...(await checkLedgerInvariants(database.db)).problems];
  // Every completed cycle left one completed challenge; nothing is stuck half-way.
  const [completed] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(challenges)
    .where(eq(challenges.status, 'completed'));
  if ((completed?.count ?? 0) !== cycles) {
    problems.push(`${cycles} cycles reported but ${completed?.count} challenges completed`);
  }
  // Money is conserved: the players' wallets and the house's fees add up to what was deposited.
  const [totals] = await queryRows<{ wallets: string; fees: string }>(
    database.db,
    sql`select
      coalesce(sum(balance_cents) filter (where kind = 'user'), 0)::text as wallets,
      coalesce(sum(balance_cents) filter (where key = 'house:fees'), 0)::text as fees
      from ledger_accounts`,
  );
  const deposited = START_CENTS * BigInt(players);
  if (BigInt(totals?.wallets ?? '0') + BigInt(totals?.fees ?? '0') !== deposited) {
    problems.push(
      `wallets ${totals?.wallets} + fees ${totals?.fees} ≠ deposits ${deposited} cents`,
    );
  }
  return problems;
}

interface Measured extends Round {
  http: Round & { transfers: number };
  /** The server's CPU time during the HTTP round, as a share of one core. */
  serverCpu: number;
  /** CPU milliseconds per cycle in the HTTP round, and the machine's busy share over it. */
  httpCost: { server: number; postgres: number; clients: number; machineBusy: number };
  /** The same for pgbench's prepared round (PostgreSQL alone does the work). */
  preparedCost: { postgres: number; machineBusy: number };
  /** Of PostgreSQL's active sessions sampled in the HTTP round, the shares waiting for locks. */
  lockWaits: LockWaits;
  tpcb: number;
  /** The same SQL from pgbench, cycles per second. */
  prepared: number;
  simple: number;
}

async function benchmark(url: string) {
  const database = openPostgres(url, CLIENTS + 2);
  const silent = { warn: () => {}, error: () => {} };
  const scriptDir = mkdtempSync(join(tmpdir(), 'skillstake-cycle-'));
  // Closed in `finally` too: its listening connection would keep the pool from ever closing.
  let bus: EventBus | undefined;
  let server: ServerProcess | undefined;
  try {
    await runMigrations(database);
    bus = await createPostgresBus(poolOf(database), silent);
    const ctx = benchContext(database, bus);
    const players = await seedPlayers(database, PLAYERS);
    await seedFundedWallets(database, players, START_CENTS);
    const seeded = await seedHistory(database, players, HISTORY);
    const script = await writeCycleScript(database, players, scriptDir);
    const tokens = await seedSessions(database, players);
    const cookies = new Map(players.map((id, i) => [id, tokens[i] ?? '']));
    server = await startProcess(
      'dist/server/main.js',
      { DATABASE_URL: url },
      '/api/ready',
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${scriptDir}`] : [],
    );
    const { baseUrl } = server;
    const serverCpu = () => server?.cpuSeconds() ?? 0;
    let pgbenchCompleted = 1;
    const loadBefore = loadavg()[0] ?? Number.NaN;
    const rounds = await withPgbench(async (pgbench) => {
      const results: Measured[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const ours = await runCycles(ctx, players);
        const cpuBefore = serverCpu();
        const machineBefore = cpuSnapshot();
        const sampling = sampleLockWaits(url, SECONDS * 1000);
        const http = await runHttpCycles(baseUrl, database, players, cookies);
        const machineAfter = cpuSnapshot();
        const serverSeconds = serverCpu() - cpuBefore;
        const cpu = serverSeconds / http.seconds;
        const lockWaits = await sampling;
        const preparedBefore = cpuSnapshot();
        const prepared = pgbenchCycles(url, script.path, 'prepared', CLIENTS, SECONDS);
        const preparedAfter = cpuSnapshot();
        const perCycle = (seconds: number, cycles: number) => (seconds * 1000) / cycles;
        const busy = (before: CpuSnapshot, after: CpuSnapshot) =>
          (after.machineBusy - before.machineBusy) / (after.machineTotal - before.machineTotal);
        const simple = pgbenchCycles(url, script.path, 'simple', CLIENTS, SECONDS);
        pgbenchCompleted += prepared.cycles + simple.cycles;
        results.push({
          ...ours,
          http,
          serverCpu: cpu,
          httpCost: {
            server: perCycle(serverSeconds, http.cycles),
            postgres: perCycle(machineAfter.postgres - machineBefore.postgres, http.cycles),
            clients: perCycle(machineAfter.bench - machineBefore.bench, http.cycles),
            machineBusy: busy(machineBefore, machineAfter),
          },
          preparedCost: {
            postgres: perCycle(preparedAfter.postgres - preparedBefore.postgres, prepared.cycles),
            machineBusy: busy(preparedBefore, preparedAfter),
          },
          lockWaits,
          prepared: prepared.perSecond,
          simple: simple.perSecond,
          tpcb: pgbench(CLIENTS, SECONDS),
        });
      }
      return results;
    });
    const loadAfter = loadavg()[0] ?? Number.NaN;
    const cycles =
      rounds.reduce((sum, round) => sum + round.cycles + round.http.cycles, 0) + pgbenchCompleted;
    await server.stop();
    server = undefined;
    const profile = readdirSync(scriptDir).find((name) => name.endsWith('.cpuprofile'));
    return {
      profile: profile && formatProfile(summarizeProfile(join(scriptDir, profile))),
      rounds,
      load: { before: loadBefore, after: loadAfter },
      statements: script.statements,
      problems: await check(database, seeded + cycles, players.length),
    };
  } finally {
    await server?.stop();
    await bus?.close();
    await database.close();
    rmSync(scriptDir, { recursive: true, force: true });
  }
}

let failed: boolean;
try {
  const { profile, rounds, load, statements, problems } = await withTemporaryDatabase(
    'skillstake_bench_settle',
    benchmark,
  );
  const errors = rounds.reduce((sum, round) => sum + round.errors + round.http.errors, 0);
  failed = errors > 0 || problems.length > 0;
  const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
  const perRound = rounds.map((round) => ({
    service: round.cycles / round.seconds,
    http: round.http.cycles / round.http.seconds,
    transfers: round.http.transfers / round.http.seconds,
    prepared: round.prepared,
    simple: round.simple,
    tpcb: round.tpcb,
    cpu: round.serverCpu,
    cost: round.httpCost,
    preparedCost: round.preparedCost,
    lockWaits: round.lockWaits,
  }));
  type Rates = (typeof perRound)[number];
  // Each ratio is taken within a round; the median row holds the median of each column.
  const med = (rates: Rates[], figure: (r: Rates) => number) => median(rates.map(figure));
  const row = (label: string, rates: Rates[], roundErrors: number) => ({
    round: label,
    'service cycles/s': med(rates, (r) => r.service).toFixed(0),
    'HTTP cycles/s': med(rates, (r) => r.http).toFixed(0),
    'same SQL, pgbench prepared / simple': `${med(rates, (r) => r.prepared).toFixed(0)} / ${med(
      rates,
      (r) => r.simple,
    ).toFixed(0)}`,
    'HTTP / same SQL prepared': percent(med(rates, (r) => r.http / r.prepared)),
    'HTTP money tx/s': med(rates, (r) => r.transfers).toFixed(0),
    'TPC-B tps': med(rates, (r) => r.tpcb).toFixed(0),
    'HTTP money tx / TPC-B': percent(med(rates, (r) => r.transfers / r.tpcb)),
    'server CPU': percent(med(rates, (r) => r.cpu)),
    errors: roundErrors,
  });
  const rows = perRound.map((r, i) =>
    row(String(i + 1), [r], (rounds[i]?.errors ?? 0) + (rounds[i]?.http.errors ?? 0)),
  );
  rows.push(row('median', perRound, errors));
  const httpShare = med(perRound, (r) => r.http / r.prepared);
  const httpSimpleShare = med(perRound, (r) => r.http / r.simple);
  const transferShare = med(perRound, (r) => r.transfers / r.tpcb);
  const serviceShare = med(perRound, (r) => r.service / r.prepared);
  // What the cores allow, were PostgreSQL to spend no more on an HTTP cycle than on pgbench's:
  // every core busy, over the server's, the clients' and that PostgreSQL time per cycle.
  const boundCycles = (r: Rates) =>
    (CORES * 1000) / (r.cost.server + r.cost.clients + r.preparedCost.postgres);
  const bound = med(perRound, (r) => boundCycles(r) / r.prepared);
  // The same bound in money transactions: the cycles it allows, at the transfers a cycle
  // committed in that round.
  const transferBound = med(perRound, (r) => (boundCycles(r) * (r.transfers / r.http)) / r.tpcb);
  const ms = (value: number) => value.toFixed(2);
  const costs = table([
    {
      'per cycle': 'HTTP',
      'server ms': ms(med(perRound, (r) => r.cost.server)),
      'PostgreSQL ms': ms(med(perRound, (r) => r.cost.postgres)),
      'clients ms': ms(med(perRound, (r) => r.cost.clients)),
      'machine busy': percent(med(perRound, (r) => r.cost.machineBusy)),
      'waiting on a row / NOTIFY / other lock': [
        med(perRound, (r) => r.lockWaits.rows),
        med(perRound, (r) => r.lockWaits.notify),
        med(perRound, (r) => r.lockWaits.other),
      ]
        .map(percent)
        .join(' / '),
    },
    {
      'per cycle': 'same SQL, pgbench prepared',
      'server ms': '',
      'PostgreSQL ms': ms(med(perRound, (r) => r.preparedCost.postgres)),
      'clients ms': '',
      'machine busy': percent(med(perRound, (r) => r.preparedCost.machineBusy)),
      'waiting on a row / NOTIFY / other lock': '',
    },
  ]);
  process.stdout.write(
    `\nChallenge cycles (create, accept, report, confirm) on PostgreSQL, ${CLIENTS} clients, ` +
      `${ROUNDS} rounds of ${SECONDS} s, each round running in turn: the service layer, HTTP ` +
      `against the built server (a separate process; its CPU time over the round is "server ` +
      `CPU", 100% = one core), the ${statements} statements of one cycle as the service layer ` +
      `sent them run by pgbench (prepared and simple protocol), and pgbench TPC-B, all with ` +
      `${CLIENTS} clients. "Money tx" are the ledger transfers the HTTP cycles committed. ` +
      (HISTORY > 0 ? `Each player had ${HISTORY} earlier results. ` : '') +
      `Load average ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after ` +
      `(2 cores).\n\n` +
      table(rows) +
      `\n\nCPU time per cycle (the machine's cores are shared by the server, PostgreSQL and the ` +
      `clients; ${CORES} cores = ${CORES * 1000} ms of CPU a second):\n\n${costs}\n` +
      `\nHTTP cycles / the same SQL from pgbench: ${percent(httpShare)} of prepared, ` +
      `${percent(httpSimpleShare)} of simple (target ≥ 75%)\n` +
      `Most HTTP cycles these cores allow, were PostgreSQL to spend on one only what pgbench's ` +
      `cycle costs it (${CORES} cores, all busy, over the server's, the clients' and that ` +
      `time): ${percent(bound)} of prepared\n` +
      `Money transactions through HTTP / TPC-B: ${percent(transferShare)} (target ≥ 30%); ` +
      `the same bound in money transactions: ${percent(transferBound)} of TPC-B\n` +
      `Service-layer cycles / the same SQL from pgbench prepared: ${percent(serviceShare)}\n` +
      (problems.length === 0
        ? 'Ledger invariants: OK (transfers balance, cached balances match, no negative wallet, ' +
          'no money left in finished escrows, wallets + fees = deposits, one completed ' +
          'challenge per cycle)\n'
        : `Ledger invariants BROKEN:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`) +
      (profile
        ? `\nCPU profile of the server over the whole run (idle outside the HTTP rounds), ` +
          `self time:\n\n${profile}\n`
        : ''),
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
}
process.exit(failed ? 1 : 0);
