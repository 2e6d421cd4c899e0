// npm run bench:ws — N authenticated account sockets (/ws, default 5,000) on one built server
// instance on PostgreSQL while challenge cycles (create, accept, settle) run among their owners:
// the delivery latency of BALANCE_UPDATE from the commit of the transfer (p50, p99), and the
// server process's resident memory and CPU. The cycles run in this process, through the service
// layer and the PostgreSQL event bus, as on a second instance: each balance change travels
// commit → NOTIFY → the server's listener → the owner's socket. Worker threads hold the sockets
// and note arrival times on the clock this thread notes commit times on. Exits non-zero only if
// something broke (a socket refused or dropped, a lost or wrong update, errors, broken
// invariants), never for slowness.
import { centsToDollarNumber } from '../../src/shared/money.ts';
import { Worker } from 'node:worker_threads';
import { openPostgres, type DatabaseHandle } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { checkLedgerInvariants } from '../../src/server/features/ledger/invariants.ts';
import { createPostgresBus, type EventBus } from '../../src/server/lib/event-bus.ts';
import {
  benchContext,
  playCycle,
  poolOf,
  quantile,
  randomPair,
  seedFundedWallets,
  seedPlayers,
  seedSessions,
  startProcess,
  table,
  withTemporaryDatabase,
  type ServerProcess,
} from './common.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
// A busy evening: with 5,000 players online and a match taking 15 to 20 minutes, about three
// challenges finish per second; five per second leaves headroom. Every created challenge is
// announced to every socket, so this rate times the socket count is the frames sent per second.
const CYCLES_PER_SECOND = Number(process.env.BENCH_CYCLES_PER_SECOND ?? 5);
const CONNECT_CONCURRENCY = 100;
/** Threads holding the sockets that only receive broadcasts. */
const WORKERS = Number(process.env.BENCH_SOCKET_THREADS ?? 2);
/** The users who play the cycles, and so receive the BALANCE_UPDATEs measured. */
const PLAYERS = Math.min(100, SOCKETS);
const START_CENTS = 10_000_000n;
const GRACE_MS = 10_000;

type WorkerMessage =
  | { type: 'opened'; count: number }
  | { type: 'failed'; message: string }
  | { type: 'balance'; userId: number; dollars: number; at: number }
  | { type: 'report'; open: number; challengeUpdates: number };

/** Milliseconds on a clock that all threads of this process share. */
const now = () => performance.timeOrigin + performance.now();

interface Tracker {
  /** Per user, the balances they should hear about, in order, with their commit times. */
  expected: Map<number, Array<{ dollars: number; committedAt: number }>>;
  /** Per user, the BALANCE_UPDATEs that arrived, in order, with their arrival times. */
  arrived: Map<number, Array<{ dollars: number; at: number }>>;
  outstanding: number;
}

/**
 * The bus the service layer publishes on, noting when each wallet's new balance committed: the
 * ledger publishes a balance the moment its transfer has committed, so the moment it publishes is
 * the commit time.
 */
function timedBus(bus: EventBus, tracker: Tracker): EventBus {
  return {
    ...bus,
    publish(event) {
      if (event.type === 'balance') {
        const list = tracker.expected.get(event.userId) ?? [];
        list.push({ dollars: centsToDollarNumber(BigInt(event.balanceCents)), committedAt: now() });
        tracker.expected.set(event.userId, list);
        tracker.outstanding += 1;
      }
      return bus.publish(event);
    },
  };
}

/** Socket holders in worker threads, sharing the sockets out evenly. */
class SocketWorkers {
  private readonly workers: Worker[];
  private readonly reports: Array<(report: { open: number; challengeUpdates: number }) => void> =
    [];

  constructor(
    server: ServerProcess,
    cookies: string[],
    private readonly tracker: Tracker,
  ) {
    const url = `${server.baseUrl.replace(/^http/, 'ws')}/ws`;
    // The players' sockets in a thread of their own, the way each browser holds one socket; the
    // others, which only take the broadcasts, shared among the remaining threads.
    const bystanders = cookies.slice(PLAYERS);
    const share = Math.ceil(bystanders.length / WORKERS);
    const slices = [
      cookies.slice(0, PLAYERS),
      ...Array.from({ length: WORKERS }, (_, i) => bystanders.slice(i * share, (i + 1) * share)),
    ];
    this.workers = slices.map(
      (slice) =>
        new Worker(new URL('./ws-clients.mjs', import.meta.url), {
          workerData: {
            url,
            cookies: slice,
            concurrency: Math.ceil(CONNECT_CONCURRENCY / slices.length),
          },
        }),
    );
  }

  /** Resolves once every worker has opened its sockets; rejects if one could not. */
  opened(): Promise<number> {
    return Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<number>((resolve, reject) => {
            worker.on('message', (message: WorkerMessage) => {
              if (message.type === 'opened') resolve(message.count);
              else if (message.type === 'failed') reject(new Error(message.message));
              else if (message.type === 'balance') {
                const list = this.tracker.arrived.get(message.userId) ?? [];
                list.push({ dollars: message.dollars, at: message.at });
                this.tracker.arrived.set(message.userId, list);
                this.tracker.outstanding -= 1;
              } else this.reports.shift()?.(message);
            });
            worker.once('error', reject);
          }),
      ),
    ).then((counts) => counts.reduce((sum, count) => sum + count, 0));
  }

  async report(): Promise<{ open: number; challengeUpdates: number }> {
    const reports = await Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<{ open: number; challengeUpdates: number }>((resolve) => {
            this.reports.push(resolve);
            worker.postMessage({ type: 'report' });
          }),
      ),
    );
    return {
      open: reports.reduce((sum, r) => sum + r.open, 0),
      challengeUpdates: reports.reduce((sum, r) => sum + r.challengeUpdates, 0),
    };
  }

  async close(): Promise<void> {
    for (const worker of this.workers) worker.postMessage({ type: 'close' });
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

async function runCycles(database: DatabaseHandle, players: number[], tracker: Tracker) {
  const bus = await createPostgresBus(poolOf(database), { warn: () => {}, error: () => {} });
  const ctx = benchContext(database, timedBus(bus, tracker));
  let cycles = 0;
  let errors = 0;
  const running = new Set<Promise<void>>();
  const started = performance.now();
  const total = Math.round(SECONDS * CYCLES_PER_SECOND);
  for (let i = 0; i < total; i += 1) {
    // Paced: cycle i starts at i / rate seconds, whatever the ones before it are doing.
    const due = started + (i * 1000) / CYCLES_PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const [creator, acceptor] = randomPair(players);
    const cycle = (async () => {
      await playCycle(ctx, creator, acceptor);
      cycles += 1;
    })().catch((error: unknown) => {
      errors += 1;
      if (errors === 1) process.stderr.write(`first error: ${String(error)}\n`);
    });
    running.add(cycle);
    void cycle.finally(() => running.delete(cycle));
  }
  await Promise.all(running);
  const seconds = (performance.now() - started) / 1000;
  await bus.close();
  return { cycles, errors, seconds };
}

async function benchmark(url: string) {
  const database = openPostgres(url, 10);
  const servers: ServerProcess[] = [];
  let holders: SocketWorkers | undefined;
  try {
    await runMigrations(database);
    const players = await seedPlayers(database, SOCKETS);
    await seedFundedWallets(database, players, START_CENTS);
    const cookies = (await seedSessions(database, players)).map((token) => `sid=${token}`);
    const server = await startProcess('dist/server/main.js', { DATABASE_URL: url }, '/api/ready');
    servers.push(server);
    const idleRss = server.rssBytes();

    const tracker: Tracker = { expected: new Map(), arrived: new Map(), outstanding: 0 };
    const connectStarted = performance.now();
    holders = new SocketWorkers(server, cookies, tracker);
    await holders.opened();
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const connectedRss = server.rssBytes();

    let peakRss = connectedRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, server.rssBytes());
    }, 250);
    const cpuBefore = server.cpuSeconds();
    const load = await runCycles(database, players.slice(0, PLAYERS), tracker);
    const serverCpu = (server.cpuSeconds() - cpuBefore) / load.seconds;
    const graceEnd = Date.now() + GRACE_MS;
    while (tracker.outstanding > 0 && Date.now() < graceEnd) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    clearInterval(sampler);
    peakRss = Math.max(peakRss, server.rssBytes());
    const { open: stillOpen, challengeUpdates } = await holders.report();

    // Match the k-th expected balance of each user with the k-th that arrived.
    const latencies: number[] = [];
    let lost = 0;
    let wrong = 0;
    let expectedCount = 0;
    for (const [userId, expected] of tracker.expected) {
      const arrived = tracker.arrived.get(userId) ?? [];
      expectedCount += expected.length;
      expected.forEach((update, k) => {
        const got = arrived[k];
        if (!got) lost += 1;
        else if (got.dollars !== update.dollars) wrong += 1;
        else latencies.push(got.at - update.committedAt);
      });
    }
    latencies.sort((a, b) => a - b);
    const invariants = await checkLedgerInvariants(database.db);
    return {
      ...load,
      serverCpu,
      connectSeconds,
      idleRss,
      connectedRss,
      peakRss,
      stillOpen,
      expectedCount,
      lost,
      wrong,
      latencies,
      challengeUpdates,
      problems: invariants.problems,
    };
  } finally {
    await holders?.close();
    for (const server of servers) await server.stop();
    await database.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

let failed: boolean;
try {
  const r = await withTemporaryDatabase('skillstake_bench_ws', benchmark);
  failed =
    r.errors > 0 || r.lost > 0 || r.wrong > 0 || r.stillOpen !== SOCKETS || r.problems.length > 0;
  const p99 = quantile(r.latencies, 0.99);
  process.stdout.write(
    `\nAccount sockets: ${SOCKETS.toLocaleString('en')} on one built server instance ` +
      `(PostgreSQL), ${CYCLES_PER_SECOND} challenge cycles/s for ${SECONDS} s among ` +
      `${PLAYERS} of their owners, from another process through the PostgreSQL event bus\n\n` +
      table([
        { measure: 'sockets opened (and still open at the end)', value: `${r.stillOpen}` },
        { measure: 'time to open them all', value: `${r.connectSeconds.toFixed(1)} s` },
        {
          measure: 'challenge cycles run (errors)',
          value: `${r.cycles} in ${r.seconds.toFixed(1)} s (${r.errors})`,
        },
        {
          measure: 'BALANCE_UPDATE expected / delivered',
          value: `${r.expectedCount} / ${r.latencies.length} (lost ${r.lost}, wrong ${r.wrong})`,
        },
        { measure: 'CHALLENGE_UPDATED received (all sockets)', value: `${r.challengeUpdates}` },
        {
          measure: 'server CPU during the cycles (one core = 100%)',
          value: `${(r.serverCpu * 100).toFixed(0)}%`,
        },
        {
          measure: 'BALANCE_UPDATE latency from commit, p50',
          value: `${quantile(r.latencies, 0.5).toFixed(1)} ms`,
        },
        { measure: 'BALANCE_UPDATE latency from commit, p99', value: `${p99.toFixed(1)} ms` },
        {
          measure: 'BALANCE_UPDATE latency from commit, max',
          value: `${(r.latencies.at(-1) ?? Number.NaN).toFixed(1)} ms`,
        },
        { measure: 'server RSS: idle, before sockets', value: mb(r.idleRss) },
        { measure: 'server RSS: with the sockets open', value: mb(r.connectedRss) },
        { measure: 'server RSS: peak during the run', value: mb(r.peakRss) },
      ]) +
      `\n\nTargets: p99 < 100 ms (${p99 < 100 ? 'met' : 'missed'}), ` +
      `memory < 1 GB (${r.peakRss < 1024 ** 3 ? 'met' : 'missed'})\n` +
      (r.problems.length === 0
        ? 'Ledger invariants: OK\n'
        : `Ledger invariants BROKEN:\n${r.problems.map((p) => `  - ${p}`).join('\n')}\n`),
  );
} catch (error) {
  failed = true;
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
}
process.exit(failed ? 1 : 0);
