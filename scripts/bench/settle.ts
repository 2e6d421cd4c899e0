// npm run bench:settle — full challenge cycles (create, accept, report, confirm) per second on PostgreSQL
// with 8 concurrent clients, through the service layer (createChallenge, acceptChallenge,
// submitScores: the functions the HTTP routes call, with the PostgreSQL event bus a deployment
// uses), beside pgbench's TPC-B with the same client count; then the ledger invariants and a
// recount of every wallet. Rounds of each alternate, so that both see the same machine. Prints a
// table; exits non-zero only if something broke (errors, invariants), never for slowness.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openPostgres, queryRows, type DatabaseHandle } from '../../src/server/db/client.ts';
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
  table,
  withPgbench,
  withTemporaryDatabase,
} from './common.ts';
import { pgbenchCycles, writeCycleScript } from './cycle-script.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PLAYERS = 400;
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
  try {
    await runMigrations(database);
    bus = await createPostgresBus(poolOf(database), silent);
    const ctx = benchContext(database, bus);
    const players = await seedPlayers(database, PLAYERS);
    await seedFundedWallets(database, players, START_CENTS);
    const script = await writeCycleScript(database, players, scriptDir);
    let pgbenchCompleted = 1;
    const rounds = await withPgbench(async (pgbench) => {
      const results: Measured[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const ours = await runCycles(ctx, players);
        const prepared = pgbenchCycles(url, script.path, 'prepared', CLIENTS, SECONDS);
        const simple = pgbenchCycles(url, script.path, 'simple', CLIENTS, SECONDS);
        pgbenchCompleted += prepared.cycles + simple.cycles;
        results.push({
          ...ours,
          prepared: prepared.perSecond,
          simple: simple.perSecond,
          tpcb: pgbench(CLIENTS, SECONDS),
        });
      }
      return results;
    });
    const cycles = rounds.reduce((sum, round) => sum + round.cycles, 0) + pgbenchCompleted;
    return {
      rounds,
      statements: script.statements,
      problems: await check(database, cycles, players.length),
    };
  } finally {
    await bus?.close();
    await database.close();
    rmSync(scriptDir, { recursive: true, force: true });
  }
}

let failed: boolean;
try {
  const { rounds, statements, problems } = await withTemporaryDatabase(
    'skillstake_bench_settle',
    benchmark,
  );
  const errors = rounds.reduce((sum, round) => sum + round.errors, 0);
  failed = errors > 0 || problems.length > 0;
  const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
  const perRound = rounds.map((round) => ({
    ours: round.cycles / round.seconds,
    prepared: round.prepared,
    simple: round.simple,
    tpcb: round.tpcb,
  }));
  type Figure = keyof (typeof perRound)[number];
  // A rate, and its share of the same round's TPC-B; for the median row, the median of each.
  const cell = (rates: Array<(typeof perRound)[number]>, figure: Figure) => ({
    rate: median(rates.map((r) => r[figure])).toFixed(0),
    share: percent(median(rates.map((r) => r[figure] / r.tpcb))),
  });
  const row = (label: string, rates: Array<(typeof perRound)[number]>, roundErrors: number) => {
    const ours = cell(rates, 'ours');
    const prepared = cell(rates, 'prepared');
    const simple = cell(rates, 'simple');
    return {
      round: label,
      'cycles/s': ours.rate,
      'pgbench TPC-B tps': cell(rates, 'tpcb').rate,
      'cycles / TPC-B': ours.share,
      'same SQL, pgbench prepared': `${prepared.rate} (${prepared.share})`,
      'same SQL, pgbench simple': `${simple.rate} (${simple.share})`,
      errors: roundErrors,
    };
  };
  const rows = perRound.map((r, i) => row(String(i + 1), [r], rounds[i]?.errors ?? 0));
  rows.push(row('median', perRound, errors));
  const ratio = median(perRound.map((r) => r.ours / r.tpcb));
  process.stdout.write(
    `\nChallenge cycles (create, accept, report, confirm: four transactions each) through the service ` +
      `layer on PostgreSQL, ${CLIENTS} clients, alternating with pgbench TPC-B (${CLIENTS} ` +
      `clients), ${ROUNDS} rounds of ${SECONDS} s each. "Same SQL": the ${statements} ` +
      `statements of one cycle, as the service layer sent them, run by pgbench (${CLIENTS} ` +
      `clients)\n\n` +
      table(rows) +
      `\n\nTarget: cycles ≥ 40% of TPC-B transactions per second (median round: ` +
      `${percent(ratio)})\n` +
      (problems.length === 0
        ? 'Ledger invariants: OK (transfers balance, cached balances match, no negative wallet, ' +
          'no money left in finished escrows, wallets + fees = deposits, one completed ' +
          'challenge per cycle)\n'
        : `Ledger invariants BROKEN:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`),
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
}
process.exit(failed ? 1 : 0);
