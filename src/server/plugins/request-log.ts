import { hostname } from 'node:os';
import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino from 'pino';
import type { Env } from '../env.ts';

/**
 * A URL as the logs may keep it: the value of a `token` parameter (the mailed links' pages,
 * `/reset-password?token=…`) is an open door for as long as the link lives.
 */
function urlForLogs(url: string): string {
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
