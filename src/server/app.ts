import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifySchema,
  type FastifyServerOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import '#shared/validation.ts';
import { UPLOAD_BYTES_MAX } from '#shared/contracts/uploads.ts';
import { createAppContext, type RateLimits } from './context.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Env } from './env.ts';
import { toHttpError } from './errors.ts';
import { myDataRoutes } from './features/account/my-data-routes.ts';
import { accountSecurityRoutes } from './features/account/routes.ts';
import { adminRoutes } from './features/admin/routes.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { pageViewer } from './features/auth/page-user.ts';
import { authRoutes } from './features/auth/routes.ts';
import { SESSION_COOKIE } from './features/auth/sessions.ts';
import { twoFactorRoutes } from './features/auth/two-factor-routes.ts';
import { challengeRoutes } from './features/challenges/routes.ts';
import { startFairPlayWorker } from './features/challenges/worker.ts';
import { healthRoutes } from './features/health/routes.ts';
import { insightsRoutes } from './features/insights/routes.ts';
import { startMailWorker, type MailTransport } from './features/mail/worker.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { playerRoutes } from './features/players/routes.ts';
import { pageData } from './features/pages/page-data.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { payoutRoutes } from './features/payouts/routes.ts';
import { profileRoutes } from './features/profile/routes.ts';
import { reportRoutes } from './features/reports/routes.ts';
import { responsibleGamingRoutes } from './features/responsible-gaming/routes.ts';
import { accountSocket } from './features/realtime/account-socket.ts';
import { tournamentRoutes } from './features/tournaments/routes.ts';
import { startTournamentWorker } from './features/tournaments/worker.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { createLocalFileStore } from './features/uploads/store.ts';
import { voiceRoutes } from './features/voice/routes.ts';
import { attachVoiceSignalling, leaveSocketIoUpgrades } from './features/voice/signalling.ts';
import { walletRoutes } from './features/wallet/routes.ts';
import { buildClientPages } from './lib/client-pages.ts';
import { compress, preferredEncoding } from './lib/content-encoding.ts';
import { projectRoot } from './lib/project-root.ts';
import { compileProxyTrust } from './lib/trusted-proxy.ts';
import { createLocalBus, type EventBus } from './lib/event-bus.ts';
import type { PeriodicWorker } from './lib/periodic-worker.ts';
import { accessControl, type Access } from './plugins/access.ts';
import { createMetrics, metricsPlugin } from './plugins/metrics.ts';
import { originGuard } from './plugins/origin-guard.ts';
import { securityHeaders } from './plugins/security-headers.ts';
import { textGuard } from './plugins/text-guard.ts';

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
   * How often this instance's payout sender looks for due payouts (DESIGN §15); unset, none runs
   * (tests call its pass themselves). The server sets it.
   */
  sendPayoutsEveryMs?: number;
  /**
   * How often results whose review ended are released and matches out of time refunded; unset,
   * no worker runs (tests call its pass themselves). The server sets it.
   */
  fairPlayEveryMs?: number;
  /**
   * How often tournaments whose start time came are started and tournament results whose review
   * ended stand (DESIGN §13); unset, no worker runs (tests call its pass). The server sets it.
   */
  tournamentsEveryMs?: number;
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

/**
 * A URL as the logs may keep it: the value of a `token` parameter (the mailed links' pages,
 * `/reset-password?token=…`) is an open door for as long as the link lives.
 */
export function urlForLogs(url: string): string {
  // Most URLs have no query at all: they are kept as they are, at no cost.
  if (!url.includes('?')) return url;
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

/**
 * The id of the request each request's logger logs for. Fastify gives every request a child
 * logger bound to its id, and pino writes a child's bindings through the redaction below when
 * it is made, which its wildcard paths make the largest cost logging had on a request that logs
 * nothing (decision 22). So the child is made with no bindings, and the id joins a line only
 * when one is written, through the `mixin`.
 */
const requestIds = new WeakMap<object, string>();

function requestIdOf(logger: object): string | undefined {
  // A logger made from a request's logger (pino's children inherit from their parents).
  for (let current: object | null = logger; current; current = Object.getPrototypeOf(current)) {
    const id = requestIds.get(current);
    if (id !== undefined) return id;
  }
  return undefined;
}

export const requestChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  const child = logger.child({}, options);
  const id = bindings.reqId;
  if (typeof id === 'string') requestIds.set(child, id);
  return child;
};

const INFO = pino.levels.values.info ?? 30;
const HOSTNAME = hostname();

/** A request as its log lines show it: never its headers, cookies or body. */
function requestForLogs(request: FastifyRequest) {
  return {
    method: request.method,
    url: urlForLogs(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * One line per answered request, as the operations section of the README says: the request, its
 * status and its time together in `request completed` (decision 22). Fastify's own `incoming
 * request` line before it doubled the logging work of every request and told nothing the
 * completed line does not.
 *
 * That line holds only the fields written here, none of which can carry a secret (the URL's
 * mailed-link token is taken out), so it skips what pino does for any other line: redaction,
 * which took a sixth of the server's time on a request that logs only this, and the per-field
 * serialization that took a tenth after it. It is one `JSON.stringify` with the fields pino
 * writes (`level`, `time`, `pid`, `hostname`, `msg`), into the logger's own stream, at the level
 * the request's logger allows (`LOG_LEVEL`, or a route's `logLevel`). A failed request's line has
 * its error, and so is written through the request's logger, redaction included.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const fields = {
      reqId: request.id,
      req: requestForLogs(request),
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (error) {
      // The request itself, which the logger's `req` serializer reads as the line above does.
      reply.log.error({ ...fields, req: request, err: error }, 'request errored');
      return;
    }
    // No logger at all (tests pass `logger: false`) has the level 'silent', which pino ranks
    // above every other.
    const threshold = pino.levels.values[reply.log.level] ?? Number.POSITIVE_INFINITY;
    if (threshold > INFO) return;
    const stream = (reply.log as unknown as Record<symbol, pino.DestinationStream | undefined>)[
      pino.symbols.streamSym
    ];
    if (!stream) return;
    const line = {
      level: INFO,
      time: Date.now(),
      pid: process.pid,
      hostname: HOSTNAME,
      ...fields,
      msg: 'request completed',
    };
    stream.write(`${JSON.stringify(line)}\n`);
  }
}

export function loggerOptions(env: Env): FastifyServerOptions['logger'] {
  return {
    level: env.LOG_LEVEL,
    mixin: (_line: object, _level: number, logger: object) => {
      const reqId = requestIdOf(logger);
      return reqId === undefined ? {} : { reqId };
    },
    serializers: {
      // Fastify's own request fields, with the URL's secrets taken out.
      req: requestForLogs,
    },
    // Secrets never reach the logs: cookies carry session tokens, bodies carry passwords, card
    // numbers and wallet addresses. Plugins log headers under their own keys too (at trace level
    // @fastify/multipart logs `busboyOptions.headers`, cookie included), hence the wildcards.
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.headers.cookie',
        '*.headers.authorization',
        '*.headers["set-cookie"]',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        // Mailed-link tokens, recovery codes and two-factor secrets open accounts as passwords
        // do. (Not `*.code`: that would hide the database's error codes in `err.code`.)
        '*.token',
        '*.recoveryCodes',
        '*.secret',
        '*.cardNumber',
        '*.clientSecret',
        '*.paymentDetails',
        '*.paymentAddress',
        '*.payAddress',
      ],
      censor: '[redacted]',
    },
  };
}

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
    db: ctx.db,
    policy: ctx.sessionPolicy,
    cache: ctx.sessionCache,
    clock: ctx.clock,
    adminTwoFactorRequired: env.ADMIN_2FA_REQUIRED,
  });

  await app.register(healthRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(accountSecurityRoutes(ctx));
  await app.register(myDataRoutes(ctx));
  await app.register(twoFactorRoutes(ctx));
  await app.register(walletRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(auditRoutes(ctx));
  await app.register(insightsRoutes(ctx));
  await app.register(payoutRoutes(ctx, { sendEveryMs: options.sendPayoutsEveryMs }));
  await app.register(
    paymentRoutes(
      ctx,
      options.reconcilePaymentsEveryMs
        ? { reconcileEveryMs: options.reconcilePaymentsEveryMs }
        : {},
    ),
  );
  const fileStore = createLocalFileStore(env.DATA_DIR);
  await app.register(challengeRoutes(ctx, fileStore));
  await app.register(uploadRoutes(ctx, fileStore));
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

  const clientDir = options.clientDir ?? join(projectRoot(), 'dist', 'client');
  const serveClient = (options.serveClient ?? true) && existsSync(join(clientDir, 'index.html'));
  if (serveClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (scripts/compress-client.mjs).
      preCompressed: true,
      // The build keeps source maps out of dist/client (scripts/keep-source-maps-private.mjs);
      // this refuses one that an operator copied back by hand all the same.
      allowedPath: (path) => !path.toLowerCase().endsWith('.map'),
      setHeaders: (res, path) => {
        // Hashed asset names change with their content, so they can be cached for good;
        // index.html must always be fetched again to pick up a new release.
        void res.header(
          'cache-control',
          path.startsWith(join(clientDir, 'assets'))
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  const clientPages = serveClient ? buildClientPages(clientDir) : undefined;
  app.setNotFoundHandler(async (request, reply) => {
    // A missing script or style sheet is a 404, not a page the browser would refuse to run.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (clientPages && isPage) {
      const queryAt = request.url.indexOf('?');
      const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
      const search = queryAt < 0 ? '' : request.url.slice(queryAt + 1);
      // A page that cannot say who is signed in still loads: its client asks GET /api/user.
      const signedIn = await pageViewer(ctx, request.cookies[SESSION_COOKIE]).catch(
        (error: unknown) => {
          request.log.error({ err: error }, 'could not check the session of a page');
          return undefined;
        },
      );
      // What the screen would ask the API for first, as the API would answer this viewer; left
      // out when it fails or is slow (the client then asks as before), and from the answer to a
      // HEAD request, whose body is never sent.
      const data =
        signedIn && request.method === 'GET'
          ? await pageData(
              ctx,
              { path, search, viewer: signedIn.viewer },
              request.log,
              options.pageDataWaitMs,
            )
          : [];
      // It names its user: kept by no cache, sent again on every visit, like an API answer.
      // Compressed per visit (a few kilobytes, a fraction of a millisecond): on a slow phone
      // network the document is the first thing the page waits for.
      const html = clientPages.render(path, signedIn && signedIn.shown, data);
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      void reply
        .header('cache-control', 'no-store')
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8');
      if (!encoding) return reply.send(html);
      return reply.header('content-encoding', encoding).send(compress(html, encoding));
    }
    return reply.code(404).send({ code: 'NOT_FOUND', message: 'Not found' });
  });

  app.addHook('onClose', async () => {
    forgetStaleSessions();
    if (!options.bus) await bus.close();
  });

  return app;
}
