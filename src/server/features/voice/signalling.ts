import { createAdapter } from '@socket.io/postgres-adapter';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import pg from 'pg';
import { Server } from 'socket.io';
import {
  SIGNAL_BYTES_MAX,
  SIGNAL_WINDOW_MS,
  SIGNALS_PER_WINDOW,
  signalPayloadSchema,
  type SignalPayload,
  VOICE_REFUSALS,
  VOICE_SOCKET_PATH,
  voiceHandshakeQuerySchema,
} from '#shared/contracts/voice.ts';
import type { AppContext } from '../../context.ts';
import { compileProxyTrust, forwardedProtocol } from '../../lib/trusted-proxy.ts';
import { isAllowedOrigin } from '../../plugins/origin-guard.ts';
import { findSessionUser, SESSION_COOKIE } from '../auth/sessions.ts';
import { findChallengeRow } from '../challenges/repository.ts';
import { findTournamentMatch } from '../tournaments/service.ts';
import { gateAdapterPool } from './adapter-pool-gate.ts';

interface VoiceSocketData {
  userId: number;
  /** The call's room: `challenge:{id}`, or `tournament-match:{id}` (DESIGN §13). */
  room: string;
  challengeId: number | null;
  tournamentMatchId: number | null;
  tokenHash: string;
  signals: { windowStart: number; count: number };
}

interface ServerToClientEvents {
  'user-joined': (userId: number) => void;
  /** Beyond the SPEC: the other player left, so the call is over until they come back. */
  'user-left': (userId: number) => void;
  signal: (payload: SignalPayload) => void;
}

interface ClientToServerEvents {
  signal: (payload: unknown) => void;
}

export type VoiceServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  VoiceSocketData
>;

/**
 * @fastify/websocket routes every upgrade through Fastify, where /socket.io/ has no route, so it
 * would answer 404 and socket.io would silently fall back to long-polling. This root `onRequest`
 * hook leaves those upgrades to socket.io's own listener.
 */
export function leaveSocketIoUpgrades(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  if (request.ws && request.url.startsWith(`${VOICE_SOCKET_PATH}/`)) reply.hijack();
  done();
}

/**
 * Voice-call signalling (SPEC §7, DESIGN §6): socket.io at /socket.io, only for the two players
 * of an accepted challenge, checked at connection. One room per challenge; signals go to the
 * other player only. Sockets are dropped when the challenge leaves `accepted` or the session ends.
 */
export function attachVoiceSignalling(app: FastifyInstance, ctx: AppContext): VoiceServer {
  const proxyTrust = compileProxyTrust(ctx.env.TRUST_PROXY);
  const io: VoiceServer = new Server(app.server, {
    path: VOICE_SOCKET_PATH,
    serveClient: false,
    maxHttpBufferSize: SIGNAL_BYTES_MAX * 2,
    // The origin is checked below with the same rule as every other request.
    cors: { origin: false },
  });
  // The adapter gets a small pool of its own: it holds one connection for LISTEN, and our main
  // pool parses 64-bit integers as bigint, which the adapter's JSON messages cannot carry.
  const adapterPool = ctx.database.pool
    ? new pg.Pool({ connectionString: ctx.database.pool.options.connectionString, max: 3 })
    : undefined;
  const adapterGate = adapterPool ? gateAdapterPool(adapterPool) : undefined;
  if (adapterPool && adapterGate) {
    adapterPool.on('error', (error) =>
      app.log.error({ err: error }, 'voice adapter connection failed'),
    );
    // The adapter keeps one connection checked out for LISTEN, where the pool's handler above
    // does not reach: without a handler of its own, a database restart or failover would crash
    // the process with an unhandled 'error'. The adapter never gives a failed connection back,
    // so it is given back here, closed (or the pool could never end); the adapter sees it end
    // and reconnects.
    adapterPool.on('connect', (client) => {
      client.on('error', (error) => {
        app.log.warn({ err: error }, 'voice adapter connection lost; reconnecting');
        try {
          (client as pg.PoolClient).release(error);
        } catch {
          // It was idle in the pool, which drops it itself, or already given back.
        }
      });
    });
    io.adapter(createAdapter(adapterGate.pool, { tableName: 'socket_io_attachments' }));
  }

  io.use(async (socket, next) => {
    const refuse = (reason: string) => next(new Error(reason));
    const query = voiceHandshakeQuerySchema.safeParse(socket.handshake.query);
    if (!query.success) return refuse(VOICE_REFUSALS.badQuery);
    // The handshake is an ordinary HTTP request; reuse the API's origin rule on its headers.
    const headers = socket.request.headers;
    const protocol = forwardedProtocol(socket.request, proxyTrust);
    if (!isAllowedOrigin({ headers, protocol, host: headers.host ?? '' }, ctx.publicOrigin)) {
      return refuse(VOICE_REFUSALS.origin);
    }

    const token = app.parseCookie(headers.cookie ?? '')[SESSION_COOKIE];
    const session = token
      ? await findSessionUser(ctx.db, token, ctx.sessionPolicy, ctx.clock(), ctx.sessionCache)
      : null;
    if (!session) return refuse(VOICE_REFUSALS.session);
    if (session.user.id !== query.data.userId) return refuse(VOICE_REFUSALS.wrongUser);

    const { challengeId, tournamentMatchId } = query.data;
    if (tournamentMatchId !== undefined) {
      const match = await findTournamentMatch(ctx.db, tournamentMatchId);
      if (!match || (session.user.id !== match.playerAId && session.user.id !== match.playerBId))
        return refuse(VOICE_REFUSALS.notParticipant);
      if (match.status !== 'playing') return refuse(VOICE_REFUSALS.matchNotPlaying);
    } else {
      const row =
        challengeId === undefined ? undefined : await findChallengeRow(ctx.db, challengeId);
      const { creatorId, acceptorId, status } = row?.challenge ?? {};
      if (!row || (session.user.id !== creatorId && session.user.id !== acceptorId)) {
        return refuse(VOICE_REFUSALS.notParticipant);
      }
      if (status !== 'accepted') return refuse(VOICE_REFUSALS.notAccepted);
    }

    socket.data = {
      userId: session.user.id,
      room:
        tournamentMatchId === undefined
          ? `challenge:${challengeId}`
          : `tournament-match:${tournamentMatchId}`,
      challengeId: challengeId ?? null,
      tournamentMatchId: tournamentMatchId ?? null,
      tokenHash: session.tokenHash,
      signals: { windowStart: Date.now(), count: 0 },
    };
    return next();
  });

  io.on('connection', async (socket) => {
    const { userId, room } = socket.data;
    // Handlers first: a signal that arrives while the join below awaits must not be lost.
    socket.on('signal', (payload) => {
      const now = Date.now();
      const window = socket.data.signals;
      if (now - window.windowStart > SIGNAL_WINDOW_MS) {
        window.windowStart = now;
        window.count = 0;
      }
      window.count += 1;
      if (window.count > SIGNALS_PER_WINDOW) {
        socket.disconnect(true);
        return;
      }
      const parsed = signalPayloadSchema.safeParse(payload);
      if (!parsed.success || parsed.data.userId !== userId) return;
      if (JSON.stringify(parsed.data.signal).length > SIGNAL_BYTES_MAX) return;
      socket.to(room).emit('signal', { userId, signal: parsed.data.signal });
    });
    socket.on('disconnect', () => {
      socket.to(room).emit('user-left', userId);
    });
    await socket.join(room);
    // Tell the players already there that this one arrived, and this one who is already there,
    // so that whichever of the two comes second, the creator learns it should call.
    socket.to(room).emit('user-joined', userId);
    try {
      const present = await io.in(room).fetchSockets();
      for (const other of new Set(present.map((s) => s.data.userId))) {
        if (other !== userId) socket.emit('user-joined', other);
      }
    } catch (error) {
      // Another instance did not answer in time; the other player's own join still announces it.
      app.log.warn({ err: error, room }, 'could not list the voice room');
    }
  });

  const disconnectWhere = async (predicate: (data: VoiceSocketData) => boolean) => {
    for (const socket of await io.local.fetchSockets()) {
      if (predicate(socket.data)) socket.disconnect(true);
    }
  };
  // A tournament changed: the calls of its matches that are no longer being played end.
  const endFinishedMatchCalls = async () => {
    for (const socket of await io.local.fetchSockets()) {
      const matchId = socket.data.tournamentMatchId;
      if (matchId === null) continue;
      const match = await findTournamentMatch(ctx.db, matchId);
      if (match?.status !== 'playing') socket.disconnect(true);
    }
  };
  const unsubscribe = ctx.bus.subscribe((event) => {
    if (event.type === 'tournament') {
      void endFinishedMatchCalls().catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not end the calls of finished tournament matches'),
      );
    } else if (event.type === 'challenge' && event.status !== 'accepted') {
      void disconnectWhere((data) => data.challengeId === event.challengeId);
    } else if (event.type === 'sessions-revoked') {
      void disconnectWhere((data) => data.userId === event.userId);
    } else if (event.type === 'session-revoked') {
      void disconnectWhere((data) => data.tokenHash === event.tokenHash);
    }
  });

  app.addHook('onClose', async () => {
    unsubscribe();
    io.local.disconnectSockets(true);
    // Fastify closes the HTTP server itself; only socket.io's engine and adapter need stopping.
    io.engine.close();
    adapterGate?.shut();
    await io.of('/').adapter.close();
    adapterGate?.releaseAll();
    await adapterPool?.end();
  });
  return io;
}
