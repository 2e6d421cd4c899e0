// npm run bench:api — requests per second and p99 latency of the built server on PostgreSQL,
// asked as a browser asks (its headers, `Accept-Encoding: gzip, deflate, br, zstd`), by a
// signed-in viewer who created none of the 2,000 open challenges:
// - GET /api/challenges?status=open&limit=24, the home page's list, beside a bare Fastify route
//   that sends the same bytes (the page as our server compressed it): the ceiling for a page of
//   that size;
// - GET /api/challenges, the SPEC's call, GET /api/user and GET /api/health, beside a bare
//   Fastify route answering {"status":"ok"};
// all in one run, with autocannon, each ratio taken within a round (median of the rounds).
// BENCH_PROFILE=1 then profiles the server's CPU under the home page's list and under
// GET /api/user, and prints where the time went. Last, what recording a request in the metrics
// costs, and what a city lookup costs, beside a request's time. Exits non-zero only if something broke
// (errors, non-2xx answers, a wrong page), never for slowness.
import { request } from 'node:http';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import type { FastifyRequest } from 'fastify';
import { dbIpLocator } from '../../src/server/lib/geo-locator.ts';
import { createMetrics } from '../../src/server/plugins/metrics.ts';
import {
  median,
  seedPlayers,
  seedSessions,
  startProcess,
  table,
  withTemporaryDatabase,
  type ServerProcess,
} from './common.ts';
import { formatProfile, summarizeProfile } from './cpu-profile.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROFILE = process.env.BENCH_PROFILE === '1';
const OPEN_CHALLENGES = 2_000;
const FINISHED_CHALLENGES = 4_000;
const CREATORS = 1_000;
const HOME_PAGE = '/api/challenges?status=open&limit=24';

/** What Chrome sends with the client's fetch of an API route. */
const BROWSER_HEADERS = {
  accept: '*/*',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
  'sec-fetch-site': 'same-origin',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
    'Chrome/131.0.0.0 Safari/537.36',
};

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** The target this one is a share of (by name). */
  baseline?: string;
  /** The process that answers it, whose CPU time per request is reported. */
  server: ServerProcess;
}

interface Measurement {
  requestsPerSecond: number;
  p99Ms: number;
  failures: number;
  /** The answering process's CPU time (user and system) per request, in microseconds. */
  cpuMicroseconds: number;
}

async function measure(target: Target, seconds: number): Promise<Measurement> {
  const cpuBefore = target.server.cpuSeconds();
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
    cpuMicroseconds: ((target.server.cpuSeconds() - cpuBefore) * 1e6) / result.requests.total,
  };
}

/**
 * Rows for reading only: players with wallets, 2,000 open challenges among 6,000, none of them
 * the viewer's. Written with SQL in bulk, so no escrow holds their stakes; nothing here moves
 * money.
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

/** The home page's list as a browser gets it: its bytes and their encoding, checked. */
async function homePageBytes(baseUrl: string, cookie: string) {
  // Node's fetch decodes what it receives; autocannon does not, so the bytes are asked for
  // with a raw request's headers and read undecoded.
  return new Promise<{ body: Buffer; encoding: string }>((resolve, reject) => {
    const call = request(
      `${baseUrl}${HOME_PAGE}`,
      { headers: { ...BROWSER_HEADERS, cookie } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (response.statusCode !== 200) {
            reject(new Error(`${HOME_PAGE} answered ${response.statusCode}`));
            return;
          }
          resolve({
            body: Buffer.concat(chunks),
            encoding: String(response.headers['content-encoding'] ?? 'identity'),
          });
        });
      },
    );
    call.on('error', reject);
    call.end();
  });
}

async function checkHomePage(baseUrl: string, cookie: string): Promise<number> {
  const page = await fetch(`${baseUrl}${HOME_PAGE}`, { headers: { cookie } });
  const text = await page.text();
  const rows = JSON.parse(text) as Array<{ status: string }>;
  if (page.status !== 200 || rows.length !== 24 || rows.some((row) => row.status !== 'open')) {
    throw new Error(`${HOME_PAGE} answered ${page.status} with ${rows.length} rows`);
  }
  return Buffer.byteLength(text);
}

async function profileServer(url: string, cookie: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'skillstake-profile-'));
  const sections: string[] = [];
  try {
    for (const path of [HOME_PAGE, '/api/user']) {
      const app = await startProcess(
        'dist/server/main.js',
        { DATABASE_URL: url, LOG_LEVEL: 'info' },
        '/api/ready',
        ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      );
      const target = {
        name: path,
        url: `${app.baseUrl}${path}`,
        headers: { ...BROWSER_HEADERS, cookie },
        server: app,
      };
      try {
        await measure(target, 2);
        const { requestsPerSecond } = await measure(target, SECONDS);
        sections.push(
          `\nCPU profile of the server under ${path} (${requestsPerSecond.toFixed(0)} requests/s while profiled), self time:\n`,
        );
      } finally {
        await app.stop();
      }
      const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
      if (!file) throw new Error('the server wrote no CPU profile');
      sections.push(formatProfile(summarizeProfile(join(dir, file))));
      rmSync(join(dir, file));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return sections.join('\n');
}

async function run(url: string) {
  const cookie = await seed(url);
  const servers: ServerProcess[] = [];
  const bodyDir = mkdtempSync(join(tmpdir(), 'skillstake-bench-body-'));
  try {
    const app = await startProcess(
      'dist/server/main.js',
      { DATABASE_URL: url, LOG_LEVEL: 'info' },
      '/api/ready',
    );
    servers.push(app);
    const rawBytes = await checkHomePage(app.baseUrl, cookie);
    const sent = await homePageBytes(app.baseUrl, cookie);
    const bodyFile = join(bodyDir, 'home-page');
    writeFileSync(bodyFile, sent.body);
    const bare = await startProcess(
      'scripts/bench/bare-fastify.mjs',
      { BARE_BODY_FILE: bodyFile, BARE_ENCODING: sent.encoding },
      '/bare',
    );
    servers.push(bare);

    const browser = { ...BROWSER_HEADERS, cookie };
    const targets: Target[] = [
      {
        name: 'bare Fastify {"status":"ok"}',
        url: `${bare.baseUrl}/bare`,
        headers: {},
        server: bare,
      },
      {
        name: `bare Fastify sending the home page's bytes`,
        url: `${bare.baseUrl}/same-bytes`,
        headers: BROWSER_HEADERS,
        server: bare,
      },
      {
        name: `GET ${HOME_PAGE} (the home page)`,
        url: `${app.baseUrl}${HOME_PAGE}`,
        headers: browser,
        server: app,
        baseline: `bare Fastify sending the home page's bytes`,
      },
      {
        name: "GET /api/challenges (the SPEC's call)",
        url: `${app.baseUrl}/api/challenges`,
        headers: browser,
        server: app,
        baseline: 'bare Fastify {"status":"ok"}',
      },
      {
        name: 'GET /api/user',
        url: `${app.baseUrl}/api/user`,
        headers: browser,
        server: app,
        baseline: 'bare Fastify {"status":"ok"}',
      },
      {
        name: 'GET /api/health (no session)',
        url: `${app.baseUrl}/api/health`,
        headers: BROWSER_HEADERS,
        server: app,
        baseline: 'bare Fastify {"status":"ok"}',
      },
    ];
    for (const target of targets) await measure(target, 2);
    const results = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
    const loadBefore = loadavg()[0] ?? Number.NaN;
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of targets) results.get(target.name)?.push(await measure(target, SECONDS));
    }
    const loadAfter = loadavg()[0] ?? Number.NaN;
    for (const server of servers.splice(0)) await server.stop();
    const profile = PROFILE ? await profileServer(url, cookie) : undefined;
    return {
      targets,
      results,
      page: { rawBytes, sentBytes: sent.body.length, encoding: sent.encoding },
      load: { before: loadBefore, after: loadAfter },
      profile,
    };
  } finally {
    for (const server of servers) await server.stop();
    rmSync(bodyDir, { recursive: true, force: true });
  }
}

/**
 * What recording one request in the Prometheus metrics costs (prom-client, decision 22): a
 * counter and a histogram observation, over a few routes and statuses as the server sees them.
 */
function measureMetricsPerRequest(): number {
  const metrics = createMetrics({ accountSockets: () => 0, voiceSockets: () => 0 });
  // Only the two fields `observeRequest` reads.
  const requests = [
    '/api/user',
    '/api/challenges',
    '/api/health',
    '/api/challenges/:id/accept',
  ].map((url) => ({ routeOptions: { url }, method: 'GET' }) as unknown as FastifyRequest);
  const calls = 1_000_000;
  const rounds: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    const start = performance.now();
    for (let i = 0; i < calls; i += 1) {
      metrics.observeRequest(
        requests[i % 4] as FastifyRequest,
        i % 97 === 0 ? 404 : 200,
        (i % 50) / 1000,
      );
    }
    rounds.push(((performance.now() - start) * 1_000_000) / calls);
  }
  return median(rounds);
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
  const { targets, results, page, load, profile } = await withTemporaryDatabase(
    'skillstake_bench_api',
    run,
  );
  // Each route against its baseline of the same round: the machine's load drifts between
  // rounds, so ratios taken side by side are steadier than a ratio of medians.
  const ofBaseline = (target: Target): number => {
    const rounds = results.get(target.name) ?? [];
    const base = target.baseline === undefined ? undefined : results.get(target.baseline);
    if (!base) return Number.NaN;
    return median(
      rounds.map((r, i) => r.requestsPerSecond / (base[i]?.requestsPerSecond ?? Number.NaN)),
    );
  };
  const summary = targets.map((target) => {
    const rounds = results.get(target.name) ?? [];
    return {
      target,
      requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
      share: ofBaseline(target),
      cpuMicroseconds: median(rounds.map((r) => r.cpuMicroseconds)),
      failures: rounds.reduce((sum, r) => sum + r.failures, 0),
    };
  });
  failed = summary.some((row) => row.failures > 0);
  const shareOf = (index: number) => `${((summary[index]?.share ?? Number.NaN) * 100).toFixed(0)}%`;
  process.stdout.write(
    `\nAPI throughput: the built server on PostgreSQL (LOG_LEVEL=info, the default: a line per ` +
      `request), autocannon with ` +
      `${CONNECTIONS} connections and a browser's headers, ${ROUNDS} rounds of ${SECONDS} s ` +
      `(medians; "share" is the median of each round's ratio to the route named under it), ` +
      `${OPEN_CHALLENGES.toLocaleString('en')} open challenges, none the viewer's; the home ` +
      `page's list is ${page.rawBytes.toLocaleString('en')} bytes of JSON, sent as ` +
      `${page.sentBytes.toLocaleString('en')} bytes of ${page.encoding}; load average ` +
      `${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after (2 cores)\n\n` +
      table(
        summary.map((row) => ({
          route: row.target.name,
          'requests/s': row.requestsPerSecond.toFixed(0),
          'p99 ms': row.p99Ms.toFixed(0),
          share: Number.isNaN(row.share) ? '' : `${(row.share * 100).toFixed(0)}%`,
          of: row.target.baseline ?? '',
          'server CPU µs/request': row.cpuMicroseconds.toFixed(1),
          failures: row.failures,
        })),
      ) +
      `\n\nThe home page / bare Fastify sending the same bytes: ${shareOf(2)} (target ≥ 50%)\n` +
      `GET /api/user / bare Fastify: ${shareOf(4)} (target ≥ 30%)\n`,
  );
  if (profile) process.stdout.write(`${profile}\n`);
  const metricsNs = measureMetricsPerRequest();
  const userRate = summary[4]?.requestsPerSecond ?? Number.NaN;
  process.stdout.write(
    `Metrics (prom-client): ${metricsNs.toFixed(0)} ns to record a request, ` +
      `${((metricsNs / (1_000_000_000 / userRate)) * 100).toFixed(1)}% of the time GET /api/user ` +
      `takes per request at its rate above\n`,
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
