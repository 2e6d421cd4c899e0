import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TRANSFER_KINDS, type TransferKind } from '#shared/contracts/wallet.ts';
import type { Executor } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Ledger } from '../features/ledger/index.ts';

/**
 * Prometheus metrics through prom-client, the field's client (decision 22 measured it on the
 * request path). Counters live in this process; Prometheus scrapes every instance and sums them.
 * Each app has its own registry (tests build several in one process); the process's own metrics
 * (memory, CPU, heap, event loop, start time) are one registry per process, collected once.
 */
const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let processRegistry: Registry | undefined;
let unhandledRejections: Counter | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    unhandledRejections = new Counter({
      name: 'skillstake_unhandled_rejections_total',
      help: 'Promises that rejected with nothing to handle them: each is a bug to fix.',
      registers: [processRegistry],
    });
    // The name this server's heap figure had before prom-client (whose own is
    // nodejs_heap_size_used_bytes), kept so that dashboards and alerts built on it still work.
    new Gauge({
      name: 'nodejs_heap_used_bytes',
      help: 'V8 heap in use, in bytes.',
      registers: [processRegistry],
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });
  }
  return processRegistry;
}

/** Counts a rejection nothing handled (lib/process-guards.ts), for an alert on any. */
export function countUnhandledRejection(): void {
  processMetrics();
  unhandledRejections?.inc();
}

export interface Metrics {
  /** Counts every transfer the ledger commits (replays of an idempotency key move nothing). */
  instrumentLedger(ledger: Ledger): Ledger;
  observeRequest(request: FastifyRequest, statusCode: number, seconds: number): void;
  render(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsSources {
  accountSockets: () => number;
  voiceSockets: () => number;
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'skillstake_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'skillstake_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  const transfers = new Counter({
    name: 'skillstake_ledger_transfers_posted_total',
    help: 'Ledger transfers committed by this process, by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  // Every series exists at 0 from the start, so that rate() counts the first increment after a
  // restart (prom-client makes a labelled series on its first increment, hence the 0s).
  for (const kind of TRANSFER_KINDS) transfers.inc({ kind }, 0);
  const failedLogins = new Counter({
    name: 'skillstake_login_failures_total',
    help: 'Refused logins: wrong username or password, or too many attempts.',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const invalidCredentials = failedLogins.labels('invalid_credentials');
  const rateLimited = failedLogins.labels('rate_limited');
  invalidCredentials.inc(0);
  rateLimited.inc(0);
  new Gauge({
    name: 'skillstake_account_sockets_open',
    help: 'Open account sockets (/ws) on this process.',
    registers: [registry],
    collect() {
      this.set(sources.accountSockets());
    },
  });
  new Gauge({
    name: 'skillstake_voice_sockets_open',
    help: 'Open voice signalling sockets (/socket.io) on this process.',
    registers: [registry],
    collect() {
      this.set(sources.voiceSockets());
    },
  });
  const processOwn = processMetrics();

  // Every request lands in the series of its route, method and status, found here by one string
  // key (route patterns and methods hold no line breaks). This saves building the label objects
  // per request; prom-client still hashes them on each increment and observation, the larger
  // part of its cost (decision 22 measures it).
  const seriesByKey = new Map<
    string,
    { answered: { inc(): void }; took: { observe(seconds: number): void } }
  >();
  const requestSeries = (route: string, method: string, statusCode: number) => {
    const key = `${route}\n${method}\n${statusCode}`;
    let series = seriesByKey.get(key);
    if (!series) {
      series = {
        answered: requests.labels(route, method, String(statusCode)),
        took: latency.labels(route, method),
      };
      seriesByKey.set(key, series);
    }
    return series;
  };

  return {
    contentType: registry.contentType,

    instrumentLedger(ledger) {
      return {
        ...ledger,
        async post(uow, input) {
          const result = await ledger.post(uow, input);
          if (!result.replayed) uow.afterCommit(() => transfers.inc({ kind: input.kind }));
          return result;
        },
        async postWith<T>(db: Executor, kind: TransferKind, statement: SQL) {
          const result = await ledger.postWith<T>(db, kind, statement);
          if (result.transfer && !result.transfer.replayed) transfers.inc({ kind });
          return result;
        },
      };
    },

    observeRequest(request, statusCode, seconds) {
      // The route's pattern, never the raw URL: ids and query strings would make every request
      // a series of its own.
      const route = request.routeOptions.url ?? 'unmatched';
      const series = requestSeries(route, request.method, statusCode);
      series.answered.inc();
      series.took.observe(seconds);
      if (route === '/api/login' && request.method === 'POST') {
        if (statusCode === 401) invalidCredentials.inc();
        else if (statusCode === 429) rateLimited.inc();
      }
    },

    async render() {
      return `${await registry.metrics()}${await processOwn.metrics()}`;
    },
  };
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export interface MetricsPluginOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: without one the endpoint does not exist (404). */
  token: string | undefined;
}

/**
 * Records every response and serves `GET /metrics` to a scraper that presents
 * `Authorization: Bearer <METRICS_TOKEN>`. It is outside /api so that a proxy can keep it off the
 * public internet with a single path rule.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: MetricsPluginOptions) => {
    const { metrics, token } = options;
    const expected = token ? digest(token) : undefined;

    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(request, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    app.get(
      '/metrics',
      { config: { access: 'public' }, logLevel: 'warn' },
      async (request, reply) => {
        if (!expected) throw new AppError('NOT_FOUND', 'Not found');
        const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        // Compared as digests: equal lengths, constant time, whatever the caller sent.
        if (!presented || !timingSafeEqual(digest(presented), expected)) {
          void reply.header('www-authenticate', 'Bearer');
          throw new AppError('UNAUTHENTICATED', 'A valid metrics token is required');
        }
        return reply
          .header('content-type', metrics.contentType)
          .header('cache-control', 'no-store')
          .send(await metrics.render());
      },
    );
  },
  { name: 'metrics' },
);
