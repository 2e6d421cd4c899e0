import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, {
  type FastifyInstance,
  type FastifySchema,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import '#shared/validation.ts';
import { UPLOAD_BYTES_MAX } from '#shared/contracts/uploads.ts';
import { createAppContext, type RateLimits } from './context.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Env } from './env.ts';
import { toHttpError } from './errors.ts';
import { dataExportRoutes } from './procedures/data-export/routes.ts';
import { accountClosingRoutes } from './procedures/account-closing/routes.ts';
import { standingRoutes } from './procedures/standing/routes.ts';
import { createChargebacks } from './procedures/chargebacks/routes.ts';
import {
  accountSecurityRoutes,
  authRoutes,
  findSessionUser,
  profileRoutes,
  SESSION_COOKIE,
  twoFactorRoutes,
} from './features/accounts/index.ts';
import { adminRoutes } from './features/admin/index.ts';
import { auditRoutes } from './features/audit/index.ts';
import {
  challengeFileReaders,
  challengeRoutes,
  startFairPlayWorker,
} from './features/challenges/index.ts';
import { healthRoutes } from './features/health/index.ts';
import { insightsRoutes } from './features/insights/index.ts';
import { startMailWorker, type MailTransport } from './features/mail/index.ts';
import { notificationRoutes } from './features/notifications/index.ts';
import { playerRoutes } from './features/players/index.ts';
import { servePages } from './features/pages/index.ts';
import { paymentRoutes } from './features/payments/index.ts';
import { payoutRoutes } from './features/payouts/index.ts';
import { reportRoutes } from './features/reports/index.ts';
import { responsibleGamingRoutes } from './features/responsible-gaming/index.ts';
import { accountSocket } from './features/realtime/index.ts';
import {
  matchFileReaders,
  startTournamentWorker,
  tournamentRoutes,
} from './features/tournaments/index.ts';
import { createLocalFileStore, uploadRoutes } from './features/uploads/index.ts';
import {
  attachVoiceSignalling,
  leaveSocketIoUpgrades,
  voiceRoutes,
} from './features/voice/index.ts';
import { walletRoutes } from './features/ledger/index.ts';
import { compileProxyTrust } from './lib/trusted-proxy.ts';
import { createLocalBus, type EventBus } from './lib/event-bus.ts';
import type { PeriodicWorker } from './lib/periodic-worker.ts';
import { accessControl, type Access } from './plugins/access.ts';
import { deviceCookie } from './plugins/device-cookie.ts';
import { createMetrics, metricsPlugin } from './plugins/metrics.ts';
import { originGuard } from './plugins/origin-guard.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { textGuard } from './plugins/text-guard.ts';
import { loggerOptions, OneLinePerRequest, requestChildLogger } from './plugins/request-log.ts';

/** One registered route: the permission-matrix test walks the whole table. */
export interface RouteEntry {
  method: string;
  url: string;
  access: Access | undefined;
  websocket: boolean;
  /** The zod schemas of its params, querystring, headers and body, as the route declared them. */
  schema: FastifySchema | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: readonly RouteEntry[];
  }
}

export interface BuildAppOptions {
  env: Env;
  database: DatabaseHandle;
  bus?: EventBus;
  clock?: () => Date;
  rateLimits?: Partial<RateLimits>;
  /** Fastify's logger option; tests pass false. */
  logger?: FastifyServerOptions['logger'];
  /** Serve the built client when it exists (default true). */
  serveClient?: boolean;
  /** Where the built client is (default dist/client); tests give a small stand-in. */
  clientDir?: string;
  /** How often the account socket pings (default 25 s); tests shorten it. */
  pingIntervalMs?: number;
  /**
   * How often pending payments are checked with their provider; unset, no check runs (tests
   * call the worker's pass themselves). The server sets it.
   */
  reconcilePaymentsEveryMs?: number;
  /**
   * How often this instance's payout sender looks for due payouts (docs/payouts.md); unset, none
   * runs (tests call its pass themselves). The server sets it.
   */
  sendPayoutsEveryMs?: number;
  /**
   * How often results whose review ended are released and matches out of time refunded; unset,
   * no worker runs (tests call its pass themselves). The server sets it.
   */
  fairPlayEveryMs?: number;
  /**
   * How often tournaments whose start time came are started and tournament results whose review
   * ended stand (docs/tournaments.md); unset, no worker runs (tests call its pass). The server sets
   * it.
   */
  tournamentsEveryMs?: number;
  /**
   * How often card disputes' evidence is staged at the provider and, unsubmitted 48 hours before
   * the bank's deadline, submitted (docs/chargebacks.md); a new dispute wakes it at once. Unset, no
   * worker runs (tests call its pass). The server sets it.
   */
  disputeEvidenceEveryMs?: number;
  /**
   * How often card refunds waiting for the provider are made (docs/chargebacks.md); a new refund
   * wakes the worker at once. Unset, no worker runs (tests call its pass). The server sets it.
   */
  cardRefundsEveryMs?: number;
  /**
   * Where mail goes: with a transport, a worker delivers the outbox every `mailEveryMs` (10 s by
   * default) and at once when mail a person waits for is queued. Without one, mail stays queued.
   */
  mailTransport?: MailTransport;
  mailEveryMs?: number;
  /**
   * How long a page waits at most for the data it carries (decision 8) before it is sent without
   * it (150 ms by default); tests shorten it.
   */
  pageDataWaitMs?: number;
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the whole application without listening: `main.ts` listens, tests inject. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const bus = options.bus ?? createLocalBus();
  let voiceSockets = (): number => 0;
  // The app's sockets are counted when scraped: the servers below exist by then.
  let accountSockets = (): number => 0;
  const metrics = createMetrics({
    accountSockets: () => accountSockets(),
    voiceSockets: () => voiceSockets(),
  });
  let mailWorker: PeriodicWorker | undefined;
  const ctx = createAppContext({
    env,
    database,
    bus,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
    wrapLedger: (ledger) => metrics.instrumentLedger(ledger),
    wakeMail: () => mailWorker?.wake(),
  });

  const app = Fastify({
    logger: options.logger ?? loggerOptions(env),
    childLoggerFactory: requestChildLogger,
    logController: new OneLinePerRequest(),
    trustProxy: compileProxyTrust(env.TRUST_PROXY),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toHttpError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (body.retryAfter !== undefined) void reply.header('retry-after', String(body.retryAfter));
    return reply.code(status).send(body);
  });

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    // HEAD routes are Fastify's copies of GET routes, with the same config and hooks.
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        access: route.config?.access,
        websocket: route.websocket === true,
        schema: route.schema,
      });
    }
  });

  await app.register(securityHeaders, {
    publicUrl: env.PUBLIC_URL,
    stripeEnabled: Boolean(env.STRIPE_PUBLISHABLE_KEY),
  });
  await app.register(metricsPlugin, { metrics, token: env.METRICS_TOKEN });
  await app.register(fastifyCookie);
  await app.register(deviceCookie, { publicOrigin: ctx.publicOrigin });
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
  accountSockets = () => app.websocketServer.clients.size;
  app.addHook('onRequest', leaveSocketIoUpgrades);
  await app.register(fastifyMultipart, {
    limits: { fileSize: UPLOAD_BYTES_MAX, files: 1, fields: 5, parts: 6 },
  });
  await app.register(originGuard, { publicOrigin: ctx.publicOrigin });
  await app.register(textGuard);
  const forgetStaleSessions = bus.subscribe((event) => {
    ctx.sessionCache.handle(event);
    ctx.balanceCache.handle(event);
  });
  await app.register(accessControl, {
    sessionCookie: SESSION_COOKIE,
    findSession: (token) =>
      findSessionUser(ctx.db, token, ctx.sessionPolicy, ctx.clock(), ctx.sessionCache),
    adminTwoFactorRequired: env.ADMIN_2FA_REQUIRED,
  });

  await app.register(healthRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(accountSecurityRoutes(ctx));
  await app.register(dataExportRoutes(ctx));
  await app.register(accountClosingRoutes(ctx));
  await app.register(standingRoutes(ctx));
  await app.register(twoFactorRoutes(ctx));
  await app.register(walletRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(auditRoutes(ctx));
  await app.register(insightsRoutes(ctx));
  await app.register(payoutRoutes(ctx, { sendEveryMs: options.sendPayoutsEveryMs }));
  const chargebacks = createChargebacks(ctx, app.log, {
    evidenceEveryMs: options.disputeEvidenceEveryMs,
    refundEveryMs: options.cardRefundsEveryMs,
  });
  await app.register(
    paymentRoutes(ctx, {
      disputes: chargebacks.recorder,
      reconcileEveryMs: options.reconcilePaymentsEveryMs,
    }),
  );
  await app.register(chargebacks.routes);
  const fileStore = createLocalFileStore(env.DATA_DIR);
  await app.register(challengeRoutes(ctx, fileStore));
  await app.register(uploadRoutes(ctx, fileStore, [challengeFileReaders, matchFileReaders]));
  await app.register(profileRoutes(ctx, fileStore));
  await app.register(voiceRoutes(ctx));
  await app.register(notificationRoutes(ctx));
  await app.register(reportRoutes(ctx));
  await app.register(playerRoutes(ctx));
  await app.register(responsibleGamingRoutes(ctx));
  await app.register(tournamentRoutes(ctx, fileStore));
  if (options.fairPlayEveryMs) {
    const everyMs = options.fairPlayEveryMs;
    let stopFairPlay: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stopFairPlay = startFairPlayWorker(ctx, app.log, everyMs);
    });
    app.addHook('onClose', async () => stopFairPlay?.());
  }
  if (options.tournamentsEveryMs) {
    const everyMs = options.tournamentsEveryMs;
    let stopTournaments: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      stopTournaments = startTournamentWorker(ctx, app.log, everyMs);
    });
    app.addHook('onClose', async () => stopTournaments?.());
  }
  const { mailTransport } = options;
  if (mailTransport) {
    app.addHook('onReady', async () => {
      mailWorker = startMailWorker(ctx.db, mailTransport, app.log, options.mailEveryMs);
    });
    app.addHook('onClose', async () => {
      await mailWorker?.stop();
      mailTransport.close?.();
    });
  }
  const voice = attachVoiceSignalling(app, ctx);
  voiceSockets = () => voice.of('/').sockets.size;
  await app.register(accountSocket, { ctx, pingIntervalMs: options.pingIntervalMs ?? 25_000 });

  await servePages(app, ctx, {
    ...(options.clientDir ? { clientDir: options.clientDir } : {}),
    serveClient: options.serveClient ?? true,
    ...(options.pageDataWaitMs !== undefined ? { pageDataWaitMs: options.pageDataWaitMs } : {}),
  });

  app.addHook('onClose', async () => {
    forgetStaleSessions();
    if (!options.bus) await bus.close();
  });

  return app;
}
