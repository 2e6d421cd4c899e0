import { existsSync } from 'node:fs';
import pino from 'pino';
import { buildApp } from './app.ts';
import { dbIpLocator } from './lib/geo-locator.ts';
import { FAIR_PLAY_INTERVAL_MS } from './features/challenges/index.ts';
import { TOURNAMENT_INTERVAL_MS } from './features/tournaments/index.ts';
import { CARD_REFUND_INTERVAL_MS } from './procedures/chargebacks/card-refunds.ts';
import { DISPUTE_EVIDENCE_INTERVAL_MS } from './procedures/chargebacks/evidence.ts';
import { openDatabase } from './db/client.ts';
import { runMigrations } from './db/migrate.ts';
import { EnvError, parseEnv, type Env } from './env.ts';
import { smtpTransport } from './features/mail/index.ts';
import { ensureAdmin } from './features/accounts/index.ts';
import { createLocalBus, createPostgresBus } from './lib/event-bus.ts';
import { keepServingOnUnhandledRejections } from './lib/process-guards.ts';
import { loggerOptions } from './plugins/request-log.ts';

const SHUTDOWN_GRACE_MS = 10_000;
// Pending payments are asked about at most this often (reconcile.ts sets how long each waits).
const PAYMENT_RECONCILE_INTERVAL_MS = 30_000;
/** A queued payout waits at most this long for a sender when no instance was woken for it. */
const PAYOUT_SEND_INTERVAL_MS = 5_000;

function readEnv(): Env {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** How much log output may wait for a slow reader before lines are dropped. */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** The most one write of log output carries. */
const LOG_WRITE_BYTES = 4 * 1024;

async function main(): Promise<void> {
  const env = readEnv();
  // Lines leave in the background (decision 22): a synchronous write per request stalled the
  // server whenever the reader of its output fell behind. What is still buffered is written
  // out when the process exits. A reader that stops altogether costs lines past 16 MB waiting,
  // not the server's memory; how many is said on standard error.
  //
  // Lines wait in chunks of at most LOG_WRITE_BYTES. The destination measures the chunk a line
  // joins each time one is added, so a chunk of 16 kB (its default) made that the costliest step
  // of a request's line under load (decision 22).
  const logStream = pino.destination({
    dest: 1,
    sync: false,
    maxWrite: LOG_WRITE_BYTES,
    maxLength: LOG_BUFFER_BYTES,
  });
  let droppedLines = 0;
  logStream.on('drop', () => {
    droppedLines += 1;
    if (droppedLines === 1 || droppedLines % 10_000 === 0) {
      process.stderr.write(`log output is not being read: ${droppedLines} lines dropped\n`);
    }
  });
  const log = pino(loggerOptions(env) as pino.LoggerOptions, logStream);
  keepServingOnUnhandledRejections(log);
  // Node 20 and older get no security fixes; `npm start` runs the Node 24 npm installed (decision 11).
  if (Number(process.versions.node.split('.')[0]) < 22) {
    log.warn(
      { node: process.version },
      'this Node.js gets no security fixes: run the server with npm start or node_modules/.bin/node',
    );
  }

  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    onIdleError: (error) => log.warn({ err: error }, 'an idle database connection failed'),
  });
  if (database.kind === 'pglite') {
    log.info(
      { dataDir: env.DATA_DIR },
      'DATABASE_URL is not set: using the embedded database (one server only; use PostgreSQL for production money)',
    );
  }
  await runMigrations(database);

  const bus = database.pool ? await createPostgresBus(database.pool, log) : createLocalBus();
  if (env.ADMIN_USERNAME && env.ADMIN_PASSWORD) {
    const outcome = await ensureAdmin(database.db, bus, env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
    log.info({ username: env.ADMIN_USERNAME, outcome }, 'first admin checked');
  }
  const app = await buildApp({
    env,
    database,
    bus,
    logger: { ...(loggerOptions(env) as object), stream: logStream },
    reconcilePaymentsEveryMs: PAYMENT_RECONCILE_INTERVAL_MS,
    sendPayoutsEveryMs: PAYOUT_SEND_INTERVAL_MS,
    fairPlayEveryMs: FAIR_PLAY_INTERVAL_MS,
    tournamentsEveryMs: TOURNAMENT_INTERVAL_MS,
    disputeEvidenceEveryMs: DISPUTE_EVIDENCE_INTERVAL_MS,
    cardRefundsEveryMs: CARD_REFUND_INTERVAL_MS,
    ...(env.SMTP_URL ? { mailTransport: smtpTransport(env.SMTP_URL, env.MAIL_FROM) } : {}),
  });
  if (!env.SMTP_URL) {
    app.log.info(
      'SMTP_URL is not set: mail (password resets and e-mail verification included) stays in the outbox table, unsent',
    );
  }
  if (!env.PUBLIC_URL) {
    app.log.info(
      { linkBase: `http://localhost:${env.PORT}` },
      'PUBLIC_URL is not set: links in mail point at this machine',
    );
  }

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close();
      await bus.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).catch(() => process.exit(1));
    });
  }

  await app.listen({ port: env.PORT, host: env.HOST });
  if (env.GEO_CHECK) {
    // Read now, in the background, so the first player from a public address does not wait for
    // it; a failure here is a broken install, and every lookup would fail the same way.
    dbIpLocator()
      .preload()
      .then(
        () => app.log.info('city database loaded (GEO_CHECK)'),
        (error: unknown) => app.log.error({ err: error }, 'the city database could not be read'),
      );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
