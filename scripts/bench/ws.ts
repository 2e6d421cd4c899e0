// npm run bench:ws — N authenticated account sockets (/ws, default 5,000) on one built server
// instance on PostgreSQL while challenge cycles (create, accept, report, confirm) run among their
// owners, in BENCH_ROUNDS rounds (default 3) on the same sockets: per round, the delivery latency
// (p50, p99) of BALANCE_UPDATE and of NOTIFICATION from the commit that caused each to its
// arrival on its owner's socket, with the CPU share of the server and of PostgreSQL (all of its
// processes, other databases' included), the machine's busy share and its load average, so that
// a busy machine shows; then the median round's p99s against the target, and the server
// process's resident memory. The cycles run in this process, through the service layer and the
// PostgreSQL event bus, as on a second instance: each balance change and each notification
// travels commit → NOTIFY → the server's listener → the owner's socket. Worker threads hold the
// sockets and note arrival times on the clock this thread notes commit times on. Exits non-zero
// only if something broke (a socket refused or dropped, a lost, duplicate, unexpected or wrong
// frame, errors, broken invariants), never for slowness.
import { AsyncLocalStorage } from 'node:async_hooks';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { centsToDollarNumber } from '../../src/shared/money.ts';
import { openPostgres, type DatabaseHandle, type Executor } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { checkLedgerInvariants } from '../../src/server/features/ledger/invariants.ts';
import type { Ledger } from '../../src/server/features/ledger/ledger.ts';
import { createPostgresBus, type EventBus } from '../../src/server/lib/event-bus.ts';
import {
  benchContext,
  cpuSnapshot,
  median,
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
/** Seconds of load per round. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// A busy evening: with 5,000 players online and a match taking 15 to 20 minutes, about three
// challenges finish per second; five per second leaves headroom. Every created challenge is
// announced to every socket, so this rate times the socket count is the frames sent per second.
const CYCLES_PER_SECOND = Number(process.env.BENCH_CYCLES_PER_SECOND ?? 5);
const CONNECT_CONCURRENCY = 100;
/** Threads holding the sockets that only receive broadcasts. */
const WORKERS = Number(process.env.BENCH_SOCKET_THREADS ?? 2);
/** The users who play the cycles, and so receive the BALANCE_UPDATEs and NOTIFICATIONs measured. */
const PLAYERS = Math.min(100, SOCKETS);
const START_CENTS = 10_000_000n;
/** How long after a round's load the frames still due may take to arrive before they are lost. */
const GRACE_MS = 10_000;
const TARGET_P99_MS = 100;

type WorkerMessage =
  | { type: 'opened'; count: number }
  | { type: 'failed'; message: string }
  | { type: 'balance'; owner: number; userId: number; dollars: number; at: number }
  | { type: 'notification'; owner: number; id: number; at: number }
  | { type: 'report'; open: number; challengeUpdates: number };

/** Milliseconds on a clock that all threads of this process share. */
const now = () => performance.timeOrigin + performance.now();

interface Due {
  round: number;
  /** When the transaction that caused it committed. */
  committedAt: number;
  /** When the service published it on the bus (at or after the commit). */
  publishedAt: number;
}

interface Tracker {
  /** The round under way: what is published now belongs to it. */
  round: number;
  /** Per user, the balances they should hear about, in order. */
  balancesDue: Map<number, Array<Due & { dollars: number }>>;
  /** Per user, the BALANCE_UPDATEs that arrived on their socket, in order. */
  balancesArrived: Map<number, Array<{ dollars: number; at: number }>>;
  /** BALANCE_UPDATEs that arrived on a socket of someone other than the user they are about. */
  balancesMisdelivered: number;
  /** Per notification id, whom it is for. */
  notificationsDue: Map<number, Due & { userId: number }>;
  /** Per notification id, the sockets' owners it arrived to. */
  notificationsArrived: Map<number, Array<{ owner: number; at: number }>>;
}

/**
 * When the transaction of the service call under way committed, if it was one posting statement
 * (`postWith`, outside a transaction): its events leave after a read or two that follow the
 * commit, and timing them there would leave those reads out of the latency. Each service call of
 * the cycle either posts so or runs one transaction, never both.
 */
const commits = new AsyncLocalStorage<{ committedAt?: number }>();

/** Runs one service call with its own commit record. */
const step = <T>(call: () => Promise<T>): Promise<T> => commits.run({}, call);

/**
 * The ledger, noting in the call's commit record when a posting statement run on the database
 * itself (not in a transaction) returned: that statement is its own transaction, committed when
 * it answers.
 */
function commitTimedLedger(database: DatabaseHandle): (ledger: Ledger) => Ledger {
  return (ledger) => ({
    ...ledger,
    postWith(db, kind, statement) {
      const record = commits.getStore();
      if (!record || db !== database.db) return ledger.postWith(db, kind, statement);
      let first = true;
      const timed = new Proxy(db, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property, target);
          if (typeof value !== 'function') return value;
          if (property !== 'execute') return value.bind(target) as unknown;
          // The posting statement is the first statement the ledger runs.
          return async (...args: unknown[]) => {
            const result: unknown = await value.apply(target, args);
            if (first) {
              first = false;
              record.committedAt = now();
            }
            return result;
          };
        },
      }) satisfies Executor;
      return ledger.postWith(timed, kind, statement);
    },
  });
}

/**
 * The bus the service layer publishes on, noting what each player should hear about and when it
 * committed: the posting statement's answer for a one-statement transaction (noted above), or
 * the moment of publishing for the others, which publish after their commit and before anything
 * else (`afterCommit`).
 */
function timedBus(bus: EventBus, tracker: Tracker): EventBus {
  return {
    ...bus,
    publish(event) {
      if (event.type === 'balance' || event.type === 'notification') {
        const publishedAt = now();
        const committedAt = commits.getStore()?.committedAt ?? publishedAt;
        const due = { round: tracker.round, committedAt, publishedAt };
        if (event.type === 'balance') {
          const list = tracker.balancesDue.get(event.userId) ?? [];
          list.push({ ...due, dollars: centsToDollarNumber(BigInt(event.balanceCents)) });
          tracker.balancesDue.set(event.userId, list);
        } else {
          tracker.notificationsDue.set(event.notification.id, { ...due, userId: event.userId });
        }
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
    owners: number[],
    private readonly tracker: Tracker,
  ) {
    const url = `${server.baseUrl.replace(/^http/, 'ws')}/ws`;
    // The players' sockets in a thread of their own, the way each browser holds one socket; the
    // others, which only take the broadcasts, shared among the remaining threads.
    const share = Math.ceil((cookies.length - PLAYERS) / WORKERS);
    const ranges: Array<[number, number]> = [
      [0, PLAYERS],
      ...Array.from({ length: WORKERS }, (_, i): [number, number] => [
        PLAYERS + i * share,
        PLAYERS + (i + 1) * share,
      ]),
    ];
    this.workers = ranges.map(
      ([start, end]) =>
        new Worker(new URL('./ws-clients.mjs', import.meta.url), {
          workerData: {
            url,
            cookies: cookies.slice(start, end),
            owners: owners.slice(start, end),
            concurrency: Math.ceil(CONNECT_CONCURRENCY / ranges.length),
          },
        }),
    );
  }

  private arrived(message: WorkerMessage): void {
    const tracker = this.tracker;
    if (message.type === 'balance') {
      if (message.owner !== message.userId) {
        tracker.balancesMisdelivered += 1;
        return;
      }
      const list = tracker.balancesArrived.get(message.userId) ?? [];
      list.push({ dollars: message.dollars, at: message.at });
      tracker.balancesArrived.set(message.userId, list);
    } else if (message.type === 'notification') {
      const list = tracker.notificationsArrived.get(message.id) ?? [];
      list.push({ owner: message.owner, at: message.at });
      tracker.notificationsArrived.set(message.id, list);
    }
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
              else if (message.type === 'report') this.reports.shift()?.(message);
              else this.arrived(message);
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

/** SECONDS of cycles at CYCLES_PER_SECOND, paced, among `players`. */
async function runCycles(ctx: ReturnType<typeof benchContext>, players: number[]) {
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
      await playCycle(ctx, creator, acceptor, true, step);
      cycles += 1;
    })().catch((error: unknown) => {
      errors += 1;
      if (errors === 1) process.stderr.write(`first error: ${String(error)}\n`);
    });
    running.add(cycle);
    void cycle.finally(() => running.delete(cycle));
  }
  await Promise.all(running);
  return { cycles, errors, seconds: (performance.now() - started) / 1000 };
}

/** Frames of the round `round` not arrived yet. */
function pending(tracker: Tracker, round: number): number {
  let count = 0;
  for (const [userId, due] of tracker.balancesDue) {
    const arrived = tracker.balancesArrived.get(userId)?.length ?? 0;
    due.forEach((item, k) => {
      if (item.round === round && k >= arrived) count += 1;
    });
  }
  for (const [id, due] of tracker.notificationsDue) {
    if (due.round === round && !tracker.notificationsArrived.has(id)) count += 1;
  }
  return count;
}

interface Delivery {
  /** Latencies from commit, in ms, sorted. */
  latencies: number[];
  /** Commit to publish, in ms, sorted: the part of the latency spent in this process. */
  publishLags: number[];
  due: number;
  lost: number;
  /** Arrived with other contents than due, or on someone else's socket. */
  wrong: number;
  duplicate: number;
}

const sorted = (values: number[]) => values.sort((a, b) => a - b);

/**
 * The round's BALANCE_UPDATEs: the k-th balance due to a user is matched with the k-th that
 * arrived on their socket (the bus and the socket keep a user's events in order).
 */
function balanceDelivery(tracker: Tracker, round: number): Delivery {
  const result: Delivery = {
    latencies: [],
    publishLags: [],
    due: 0,
    lost: 0,
    wrong: 0,
    duplicate: 0,
  };
  for (const [userId, due] of tracker.balancesDue) {
    const arrived = tracker.balancesArrived.get(userId) ?? [];
    due.forEach((item, k) => {
      if (item.round !== round) return;
      result.due += 1;
      const got = arrived[k];
      if (!got) result.lost += 1;
      else if (got.dollars !== item.dollars) result.wrong += 1;
      else {
        result.latencies.push(got.at - item.committedAt);
        result.publishLags.push(item.publishedAt - item.committedAt);
      }
    });
  }
  sorted(result.latencies);
  sorted(result.publishLags);
  return result;
}

/** The round's NOTIFICATIONs, matched by id: each must reach its owner's socket once. */
function notificationDelivery(tracker: Tracker, round: number): Delivery {
  const result: Delivery = {
    latencies: [],
    publishLags: [],
    due: 0,
    lost: 0,
    wrong: 0,
    duplicate: 0,
  };
  for (const [id, item] of tracker.notificationsDue) {
    if (item.round !== round) continue;
    result.due += 1;
    const arrived = tracker.notificationsArrived.get(id) ?? [];
    const first = arrived[0];
    if (!first) result.lost += 1;
    else if (arrived.some((got) => got.owner !== item.userId)) result.wrong += 1;
    else if (arrived.length > 1) result.duplicate += 1;
    else {
      result.latencies.push(first.at - item.committedAt);
      result.publishLags.push(item.publishedAt - item.committedAt);
    }
  }
  sorted(result.latencies);
  sorted(result.publishLags);
  return result;
}

/** Frames that arrived with nothing due to match them, over the whole run. */
function unexpectedFrames(tracker: Tracker): { balances: number; notifications: number } {
  let balances = tracker.balancesMisdelivered;
  for (const [userId, arrived] of tracker.balancesArrived) {
    balances += Math.max(0, arrived.length - (tracker.balancesDue.get(userId)?.length ?? 0));
  }
  let notifications = 0;
  for (const id of tracker.notificationsArrived.keys()) {
    if (!tracker.notificationsDue.has(id)) notifications += 1;
  }
  return { balances, notifications };
}

interface Round {
  cycles: number;
  errors: number;
  seconds: number;
  balances: Delivery;
  notifications: Delivery;
  /** CPU shares during the load, one core = 1. */
  serverCpu: number;
  postgresCpu: number;
  /** The machine's busy share during the load, all cores = 1. */
  machineBusy: number;
  /** The 1-minute load average at the end of the load. */
  load: number;
}

async function benchmark(url: string) {
  const database = openPostgres(url, 10);
  const servers: ServerProcess[] = [];
  let holders: SocketWorkers | undefined;
  let bus: EventBus | undefined;
  try {
    await runMigrations(database);
    const players = await seedPlayers(database, SOCKETS);
    await seedFundedWallets(database, players, START_CENTS);
    const cookies = (await seedSessions(database, players)).map((token) => `sid=${token}`);
    const server = await startProcess('dist/server/main.js', { DATABASE_URL: url }, '/api/ready');
    servers.push(server);
    const idleRss = server.rssBytes();

    const tracker: Tracker = {
      round: 0,
      balancesDue: new Map(),
      balancesArrived: new Map(),
      balancesMisdelivered: 0,
      notificationsDue: new Map(),
      notificationsArrived: new Map(),
    };
    const connectStarted = performance.now();
    holders = new SocketWorkers(server, cookies, players, tracker);
    await holders.opened();
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    const connectedRss = server.rssBytes();

    bus = await createPostgresBus(poolOf(database), { warn: () => {}, error: () => {} });
    const ctx = benchContext(database, timedBus(bus, tracker), commitTimedLedger(database));
    let peakRss = connectedRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, server.rssBytes());
    }, 250);
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      tracker.round = round;
      const cpuBefore = server.cpuSeconds();
      const machineBefore = cpuSnapshot();
      const load = await runCycles(ctx, players.slice(0, PLAYERS));
      const serverCpu = (server.cpuSeconds() - cpuBefore) / load.seconds;
      const machineAfter = cpuSnapshot();
      const loadAverage = loadavg()[0] ?? Number.NaN;
      const graceEnd = Date.now() + GRACE_MS;
      while (pending(tracker, round) > 0 && Date.now() < graceEnd) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      rounds.push({
        ...load,
        balances: balanceDelivery(tracker, round),
        notifications: notificationDelivery(tracker, round),
        serverCpu,
        postgresCpu: (machineAfter.postgres - machineBefore.postgres) / load.seconds,
        machineBusy:
          (machineAfter.machineBusy - machineBefore.machineBusy) /
          (machineAfter.machineTotal - machineBefore.machineTotal),
        load: loadAverage,
      });
    }
    clearInterval(sampler);
    peakRss = Math.max(peakRss, server.rssBytes());
    const { open: stillOpen, challengeUpdates } = await holders.report();
    const invariants = await checkLedgerInvariants(database.db);
    return {
      rounds,
      unexpected: unexpectedFrames(tracker),
      connectSeconds,
      idleRss,
      connectedRss,
      peakRss,
      stillOpen,
      challengeUpdates,
      problems: invariants.problems,
    };
  } finally {
    await holders?.close();
    await bus?.close();
    for (const server of servers) await server.stop();
    await database.close();
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(1)} ms`);
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const all = (deliveries: Delivery[]): Delivery => ({
  latencies: sorted(deliveries.flatMap((d) => d.latencies)),
  publishLags: sorted(deliveries.flatMap((d) => d.publishLags)),
  due: sum(deliveries.map((d) => d.due)),
  lost: sum(deliveries.map((d) => d.lost)),
  wrong: sum(deliveries.map((d) => d.wrong)),
  duplicate: sum(deliveries.map((d) => d.duplicate)),
});
const broken = (d: Delivery) => d.lost + d.wrong + d.duplicate;
const deliveryLine = (d: Delivery) =>
  `${d.due} / ${d.latencies.length} (lost ${d.lost}, wrong ${d.wrong}, duplicate ${d.duplicate})`;
const against = (p99: number) =>
  `${ms(p99)} (${Number.isNaN(p99) ? 'nothing measured' : p99 < TARGET_P99_MS ? 'met' : 'missed'})`;

let failed: boolean;
try {
  const r = await withTemporaryDatabase('skillstake_bench_ws', benchmark);
  const balances = all(r.rounds.map((round) => round.balances));
  const notifications = all(r.rounds.map((round) => round.notifications));
  const errors = sum(r.rounds.map((round) => round.errors));
  failed =
    errors > 0 ||
    broken(balances) > 0 ||
    broken(notifications) > 0 ||
    r.unexpected.balances > 0 ||
    r.unexpected.notifications > 0 ||
    r.stillOpen !== SOCKETS ||
    r.problems.length > 0;
  const balanceP99 = median(r.rounds.map((round) => quantile(round.balances.latencies, 0.99)));
  const notificationP99 = median(
    r.rounds.map((round) => quantile(round.notifications.latencies, 0.99)),
  );
  process.stdout.write(
    `\nAccount sockets: ${SOCKETS.toLocaleString('en')} on one built server instance ` +
      `(PostgreSQL), ${ROUNDS} rounds of ${CYCLES_PER_SECOND} challenge cycles/s for ` +
      `${SECONDS} s among ${PLAYERS} of their owners, from another process through the ` +
      `PostgreSQL event bus; ${availableParallelism()} cores\n\n` +
      table([
        { measure: 'sockets opened (and still open at the end)', value: `${r.stillOpen}` },
        { measure: 'time to open them all', value: `${r.connectSeconds.toFixed(1)} s` },
        {
          measure: 'challenge cycles run (errors)',
          value:
            `${sum(r.rounds.map((round) => round.cycles))} in ` +
            `${sum(r.rounds.map((round) => round.seconds)).toFixed(1)} s (${errors})`,
        },
        { measure: 'BALANCE_UPDATE due / measured', value: deliveryLine(balances) },
        { measure: 'NOTIFICATION due / measured', value: deliveryLine(notifications) },
        {
          measure: 'unexpected BALANCE_UPDATE / NOTIFICATION',
          value: `${r.unexpected.balances} / ${r.unexpected.notifications}`,
        },
        { measure: 'CHALLENGE_UPDATED received (all sockets)', value: `${r.challengeUpdates}` },
        {
          measure: 'commit → publish in this process, p50 / p99',
          value:
            `${ms(quantile(balances.publishLags, 0.5))} / ${ms(quantile(balances.publishLags, 0.99))}` +
            ` (balances), ${ms(quantile(notifications.publishLags, 0.5))} / ` +
            `${ms(quantile(notifications.publishLags, 0.99))} (notifications)`,
        },
        {
          measure: 'latency from commit, max',
          value:
            `${ms(balances.latencies.at(-1) ?? Number.NaN)} (BALANCE_UPDATE), ` +
            `${ms(notifications.latencies.at(-1) ?? Number.NaN)} (NOTIFICATION)`,
        },
        { measure: 'server RSS: idle, before sockets', value: mb(r.idleRss) },
        { measure: 'server RSS: with the sockets open', value: mb(r.connectedRss) },
        { measure: 'server RSS: peak during the run', value: mb(r.peakRss) },
      ]) +
      '\n\nPer round (latency from commit to the owner’s socket; CPU during the load, one core = ' +
      '100%, PostgreSQL’s for all its databases; machine busy over all cores; 1-minute load ' +
      'average at the end of the load):\n\n' +
      table(
        r.rounds.map((round, i) => ({
          round: `${i + 1}`,
          'BALANCE p50': ms(quantile(round.balances.latencies, 0.5)),
          'BALANCE p99': ms(quantile(round.balances.latencies, 0.99)),
          'NOTIFICATION p50': ms(quantile(round.notifications.latencies, 0.5)),
          'NOTIFICATION p99': ms(quantile(round.notifications.latencies, 0.99)),
          'frames measured (B + N)': `${round.balances.latencies.length} + ${round.notifications.latencies.length}`,
          'server CPU': percent(round.serverCpu),
          'PostgreSQL CPU (all)': percent(round.postgresCpu),
          'machine busy': percent(round.machineBusy),
          load: round.load.toFixed(2),
        })),
      ) +
      `\n\nMedian round p99 against the target (< ${TARGET_P99_MS} ms): ` +
      `BALANCE_UPDATE ${against(balanceP99)}, NOTIFICATION ${against(notificationP99)}; ` +
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
