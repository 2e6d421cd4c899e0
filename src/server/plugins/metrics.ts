import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { TRANSFER_KINDS, type TransferKind } from '#shared/contracts/wallet.ts';
import type { Executor } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Ledger } from '../features/ledger/ledger.ts';

/**
 * Prometheus metrics, written out by hand in the text exposition format (version 0.0.4): a few
 * counters, gauges and one histogram do not need a client library. Counters live in this
 * process; Prometheus scrapes every instance and sums them.
 */
type Labels = Record<string, string>;

const escapeLabel = (value: string): string =>
  value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`;
}

const keyOf = (labels: Labels): string => JSON.stringify(labels);

class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    this.series(labels).value += by;
  }

  /** The series with these labels, created at 0: a caller may keep it and count on it. */
  series(labels: Labels): { labels: Labels; value: number } {
    const key = keyOf(labels);
    let entry = this.values.get(key);
    if (!entry) {
      entry = { labels, value: 0 };
      this.values.set(key, entry);
    }
    return entry;
  }

  /** Makes a series exist at 0, so that rate() works from the first scrape. */
  touch(labels: Labels): void {
    this.series(labels);
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values())
      lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines;
  }
}

const LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

class Histogram {
  private readonly series = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  /** Records into the series with these labels: a caller may keep it and skip the lookup. */
  recorder(labels: Labels): (value: number) => void {
    const key = keyOf(labels);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    const { counts } = entry;
    const series = entry;
    return (value) => {
      for (const [index, bound] of this.buckets.entries()) {
        if (value <= bound) counts[index] = (counts[index] ?? 0) + 1;
      }
      series.sum += value;
      series.count += 1;
    };
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.series.values()) {
      for (const [index, bound] of this.buckets.entries()) {
        lines.push(
          `${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${counts[index] ?? 0}`,
        );
      }
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines;
  }
}

function gauge(name: string, help: string, value: number): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`];
}

export interface Metrics {
  /** Counts every transfer the ledger commits (replays of an idempotency key move nothing). */
  instrumentLedger(ledger: Ledger): Ledger;
  observeRequest(request: FastifyRequest, statusCode: number, seconds: number): void;
  render(gauges: { accountSockets: number; voiceSockets: number }): string;
}

export function createMetrics(): Metrics {
  const requests = new Counter(
    'skillstake_http_requests_total',
    'HTTP requests answered, by route pattern, method and status.',
  );
  const latency = new Histogram(
    'skillstake_http_request_duration_seconds',
    'Time from receiving a request to sending its response, by route pattern and method.',
    LATENCY_BUCKETS_SECONDS,
  );
  const transfers = new Counter(
    'skillstake_ledger_transfers_posted_total',
    'Ledger transfers committed by this process, by kind.',
  );
  for (const kind of TRANSFER_KINDS) transfers.touch({ kind });
  const failedLogins = new Counter(
    'skillstake_login_failures_total',
    'Refused logins: wrong username or password, or too many attempts.',
  );
  failedLogins.touch({ reason: 'invalid_credentials' });
  failedLogins.touch({ reason: 'rate_limited' });
  const startedAtSeconds = Math.floor(Date.now() / 1000);

  // Every request lands in the series of its route, method and status, found by a key of those
  // three joined: a JSON key built from a label object per request was the largest cost metrics
  // had per request. Route patterns and methods hold no line breaks.
  const seriesByKey = new Map<
    string,
    { answered: { value: number }; took: (seconds: number) => void }
  >();
  const requestSeries = (route: string, method: string, statusCode: number) => {
    const key = `${route}\n${method}\n${statusCode}`;
    let series = seriesByKey.get(key);
    if (!series) {
      series = {
        answered: requests.series({ route, method, status: String(statusCode) }),
        took: latency.recorder({ route, method }),
      };
      seriesByKey.set(key, series);
    }
    return series;
  };

  return {
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
      series.answered.value += 1;
      series.took(seconds);
      if (route === '/api/login' && request.method === 'POST') {
        if (statusCode === 401) failedLogins.inc({ reason: 'invalid_credentials' });
        else if (statusCode === 429) failedLogins.inc({ reason: 'rate_limited' });
      }
    },

    render({ accountSockets, voiceSockets }) {
      const memory = process.memoryUsage();
      return `${[
        ...requests.render(),
        ...latency.render(),
        ...transfers.render(),
        ...failedLogins.render(),
        ...gauge(
          'skillstake_account_sockets_open',
          'Open account sockets (/ws) on this process.',
          accountSockets,
        ),
        ...gauge(
          'skillstake_voice_sockets_open',
          'Open voice signalling sockets (/socket.io) on this process.',
          voiceSockets,
        ),
        ...gauge(
          'process_start_time_seconds',
          'Start time of the process since the Unix epoch, in seconds.',
          startedAtSeconds,
        ),
        ...gauge('process_resident_memory_bytes', 'Resident memory size, in bytes.', memory.rss),
        ...gauge('nodejs_heap_used_bytes', 'V8 heap in use, in bytes.', memory.heapUsed),
      ].join('\n')}\n`;
    },
  };
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

export interface MetricsPluginOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: without one the endpoint does not exist (404). */
  token: string | undefined;
  accountSockets: () => number;
  voiceSockets: () => number;
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
          .header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(
            metrics.render({
              accountSockets: options.accountSockets(),
              voiceSockets: options.voiceSockets(),
            }),
          );
      },
    );
  },
  { name: 'metrics' },
);
