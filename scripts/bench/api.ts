// npm run bench:api — requests per second and p99 latency of the built server on PostgreSQL for
// GET /api/challenges?status=open&limit=50 (a page out of 10,000 open challenges, asked for as a
// browser asks, gzip accepted, and without compression), GET /api/user
// and GET /api/health, beside a bare Fastify route in its own process, all in one run, measured
// with autocannon. The headline is each route's rate as a share of the bare route's. Exits
// non-zero only if something broke (errors, non-2xx answers, a wrong page), never for slowness.
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { dbIpLocator } from '../../src/server/lib/geo-locator.ts';
import {
  median,
  seedPlayers,
  seedSessions,
  startProcess,
  table,
  withTemporaryDatabase,
  type ServerProcess,
} from './common.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPEN_CHALLENGES = 10_000;
const FINISHED_CHALLENGES = 20_000;
const CREATORS = 1_000;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface Measurement {
  requestsPerSecond: number;
  p99Ms: number;
  failures: number;
}

async function measure(target: Target, seconds: number): Promise<Measurement> {
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: target.headers,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/**
 * Rows for reading only: players with wallets, 10,000 open challenges among 30,000. Written
 * with SQL in bulk, so no escrow holds their stakes; nothing here moves money.
 */
async function seed(url: string): Promise<string> {
  const database = openPostgres(url, 2);
  try {
    await runMigrations(database);
    const creators = await seedPlayers(database, CREATORS);
    const [viewer] = await seedPlayers(database, 1, 'viewer');
    if (viewer === undefined) throw new Error('no viewer');
    await database.db.execute(sql`
      insert into ledger_accounts (key, kind, user_id, allow_negative, balance_cents)
      select 'user:' || id, 'user', id, false, 0 from users`);
    const first = creators[0] ?? 1;
    await database.db.execute(sql`
      insert into challenges (creator_id, amount_cents, game, gamer_tag, phone_number, console,
        status)
      select ${first} + (g % ${CREATORS}), 500 + (g % 50) * 100, 'Chess', 'gamer_' || g,
        '5550100000', 'PC', case when g % 3 = 0 then 'open' else 'completed' end
      from generate_series(1, ${OPEN_CHALLENGES + FINISHED_CHALLENGES}) g`);
    await database.db.execute(sql`analyze`);
    const [token] = await seedSessions(database, [viewer]);
    return `sid=${token}`;
  } finally {
    await database.close();
  }
}

async function run(url: string) {
  const cookie = await seed(url);
  const servers: ServerProcess[] = [];
  try {
    const bare = await startProcess('scripts/bench/bare-fastify.mjs', {}, '/bare');
    servers.push(bare);
    const app = await startProcess('dist/server/main.js', { DATABASE_URL: url }, '/api/ready');
    servers.push(app);

    const page = await fetch(`${app.baseUrl}/api/challenges?status=open&limit=50`, {
      headers: { cookie },
    });
    const rows = (await page.json()) as Array<{ status: string }>;
    if (page.status !== 200 || rows.length !== 50 || rows.some((row) => row.status !== 'open')) {
      throw new Error(`GET /api/challenges answered ${page.status} with ${rows.length} rows`);
    }

    const targets: Target[] = [
      { name: 'bare Fastify route', url: `${bare.baseUrl}/bare`, headers: {} },
      {
        name: 'GET /api/challenges?status=open&limit=50',
        url: `${app.baseUrl}/api/challenges?status=open&limit=50`,
        // What every browser sends with a fetch.
        headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' },
      },
      {
        name: 'the same, uncompressed (no Accept-Encoding)',
        url: `${app.baseUrl}/api/challenges?status=open&limit=50`,
        headers: { cookie },
      },
      { name: 'GET /api/user', url: `${app.baseUrl}/api/user`, headers: { cookie } },
      { name: 'GET /api/health (no session)', url: `${app.baseUrl}/api/health`, headers: {} },
    ];
    for (const target of targets) await measure(target, 2);
    const results = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of targets) results.get(target.name)?.push(await measure(target, SECONDS));
    }
    return results;
  } finally {
    for (const server of servers) await server.stop();
  }
}

/**
 * The city lookup of DESIGN §11, which registration, deposits, creating and accepting (and each
 * sign-in) make once: its cost per call beside the requests above, on random public IPv4
 * addresses, after the database is loaded (as the server loads it at start-up).
 */
async function measureGeoLookups(): Promise<{ loadMs: number; microseconds: number }> {
  const geo = dbIpLocator();
  const loadStart = performance.now();
  await geo.preload();
  const loadMs = performance.now() - loadStart;
  const addresses = Array.from({ length: 200_000 }, () => {
    // 1–223 in the first octet, the public unicast space (private ones are not looked up).
    const octets = [1 + Math.floor(Math.random() * 223), 0, 0, 0].map((value, index) =>
      index === 0 ? value : Math.floor(Math.random() * 256),
    );
    return octets.join('.');
  });
  const start = performance.now();
  for (const address of addresses) await geo.locate(address);
  return { loadMs, microseconds: ((performance.now() - start) * 1000) / addresses.length };
}

let failed: boolean;
try {
  const results = await withTemporaryDatabase('skillstake_bench_api', run);
  // Each route against the bare route of the same round: the machine's load drifts between
  // rounds, so ratios taken side by side are steadier than a ratio of medians.
  const bareRounds = [...results.values()][0] ?? [];
  const summary = [...results].map(([name, rounds]) => ({
    name,
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    ofBare: median(
      rounds.map((r, i) => r.requestsPerSecond / (bareRounds[i]?.requestsPerSecond ?? Number.NaN)),
    ),
    failures: rounds.reduce((sum, r) => sum + r.failures, 0),
  }));
  failed = summary.some((row) => row.failures > 0);
  const challenges = summary[1]?.ofBare ?? Number.NaN;
  process.stdout.write(
    `\nAPI throughput: the built server on PostgreSQL (LOG_LEVEL=warn), autocannon with ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s (medians; "of bare" is the ` +
      `median of each round's ratio), ${OPEN_CHALLENGES.toLocaleString('en')} open challenges\n\n` +
      table(
        summary.map((row) => ({
          route: row.name,
          'requests/s': row.requestsPerSecond.toFixed(0),
          'p99 ms': row.p99Ms.toFixed(0),
          'of bare': `${(row.ofBare * 100).toFixed(0)}%`,
          failures: row.failures,
        })),
      ) +
      `\n\nGET /api/challenges / bare Fastify route: ${(challenges * 100).toFixed(0)}% ` +
      '(target ≥ 50%)\n',
  );
  const geo = await measureGeoLookups();
  const slowest = Math.min(...summary.map((row) => row.requestsPerSecond));
  process.stdout.write(
    `City lookup (GEO_CHECK, money routes and sign-ins only): database loaded in ` +
      `${geo.loadMs.toFixed(0)} ms, then ${geo.microseconds.toFixed(1)} µs a lookup, ` +
      `${((geo.microseconds / (1_000_000 / slowest)) * 100).toFixed(1)}% of the time the ` +
      `slowest route above takes per request (1 / its requests per second)\n`,
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
}
process.exit(failed ? 1 : 0);
