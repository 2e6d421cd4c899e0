// npm run bench:ledger — two-wallet transfers per second through the ledger service, on PGlite
// and on PostgreSQL with 8 concurrent workers, beside pgbench's TPC-B on the same PostgreSQL
// with the same client count. Prints a table; exits non-zero only if something broke.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedded, openPostgres, type DatabaseHandle } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { inTransaction } from '../../src/server/db/transaction.ts';
import { EXTERNAL_CARD, userWallet } from '../../src/server/features/ledger/accounts.ts';
import { checkLedgerInvariants } from '../../src/server/features/ledger/invariants.ts';
import { createLedger } from '../../src/server/features/ledger/ledger.ts';
import { createLocalBus } from '../../src/server/lib/event-bus.ts';
import { pgbenchTps, table, withTemporaryDatabase } from './common.ts';

const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WALLETS = 200;

const ledger = createLedger(createLocalBus());

async function seed(database: DatabaseHandle): Promise<number[]> {
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: WALLETS }, (_, i) => ({ username: `bench_${i}`, passwordHash: 'x' })),
    )
    .returning({ id: users.id });
  for (const { id } of rows) {
    await inTransaction(database.db, (uow) =>
      ledger.post(uow, {
        idempotencyKey: `bench-seed:${id}`,
        kind: 'deposit',
        entries: [
          { account: EXTERNAL_CARD, direction: 'debit', amountCents: 1_000_000n },
          { account: userWallet(id), direction: 'credit', amountCents: 1_000_000n },
        ],
      }),
    );
  }
  return rows.map((row) => row.id);
}

async function run(
  database: DatabaseHandle,
): Promise<{ tps: number; transfers: number; errors: number }> {
  await runMigrations(database);
  const wallets = await seed(database);
  let transfers = 0;
  let errors = 0;
  let sequence = 0;
  const deadline = Date.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < deadline) {
        // Two different wallets, chosen at random.
        const fromIndex = Math.floor(Math.random() * wallets.length);
        const offset = 1 + Math.floor(Math.random() * (wallets.length - 1));
        const from = wallets.at(fromIndex) ?? 0;
        const to = wallets.at((fromIndex + offset) % wallets.length) ?? 0;
        sequence += 1;
        const idempotencyKey = `bench:${sequence}`;
        try {
          await inTransaction(database.db, (uow) =>
            ledger.post(uow, {
              idempotencyKey,
              kind: 'adjustment',
              entries: [
                { account: userWallet(from), direction: 'debit', amountCents: 1n },
                { account: userWallet(to), direction: 'credit', amountCents: 1n },
              ],
            }),
          );
          transfers += 1;
        } catch (error) {
          errors += 1;
          if (errors === 1) process.stderr.write(`first error: ${String(error)}\n`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const report = await checkLedgerInvariants(database.db);
  if (!report.ok) throw new Error(`ledger invariants broken:\n${report.problems.join('\n')}`);
  return { tps: transfers / seconds, transfers, errors };
}

const folder = mkdtempSync(join(tmpdir(), 'skillstake-bench-'));
let failed: boolean;
try {
  const embedded = await openEmbedded(folder);
  const onPglite = await run(embedded).finally(() => embedded.close());
  const onPostgres = await withTemporaryDatabase('skillstake_bench_ledger', async (url) => {
    const database = openPostgres(url, WORKERS + 2);
    return run(database).finally(() => database.close());
  });
  const tpcb = await pgbenchTps(WORKERS, SECONDS);
  failed = onPglite.errors > 0 || onPostgres.errors > 0;
  process.stdout.write(
    `\nLedger transfers, ${WORKERS} workers, ${SECONDS} s each (invariants checked after each run)\n\n` +
      table([
        {
          engine: 'PGlite (disk)',
          'tx/s': onPglite.tps.toFixed(0),
          transfers: onPglite.transfers,
          errors: onPglite.errors,
        },
        {
          engine: 'PostgreSQL',
          'tx/s': onPostgres.tps.toFixed(0),
          transfers: onPostgres.transfers,
          errors: onPostgres.errors,
        },
        { engine: 'pgbench TPC-B', 'tx/s': tpcb.toFixed(0), transfers: '-', errors: '-' },
      ]) +
      `\n\nPostgreSQL ledger / pgbench TPC-B: ${((onPostgres.tps / tpcb) * 100).toFixed(0)}%\n`,
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
