import { createAdapter } from '@socket.io/postgres-adapter';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import pg from 'pg';
import { Server, type Socket } from 'socket.io';
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
import { findSessionUser, SESSION_COOKIE } from '../accounts/index.ts';
import { findChallengeRow } from '../challenges/index.ts';
import { findTournamentMatch } from '../tournaments/index.ts';
import { gateAdapterPool } from './adapter-pool-gate.ts';

interface VoiceSocketData {
  userId: number;
  /** The call's room: `challenge:{id}`, or `tournament-match:{id}` (docs/tournaments.md). */
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
type VoiceSocket = Socket<
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
 * Voice-call signalling (docs/product.md#calls, docs/architecture.md#realtime): socket.io at
 * /socket.io, only for the two players of an accepted challenge, checked at connection. One room
 * per challenge; signals go to the other player only. Sockets are dropped when the challenge leaves
 * `accepted` or the session ends.
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

  /** Who may join the call the handshake asks for: its data, or the refusal's reason. */
  const admit = async (socket: VoiceSocket): Promise<VoiceSocketData | string> => {
    const query = voiceHandshakeQuerySchema.safeParse(socket.handshake.query);
    if (!query.success) return VOICE_REFUSALS.badQuery;
    // The handshake is an ordinary HTTP request; reuse the API's origin rule on its headers.
    const headers = socket.request.headers;
    const protocol = forwardedProtocol(socket.request, proxyTrust);
    if (!isAllowedOrigin({ headers, protocol, host: headers.host ?? '' }, ctx.publicOrigin)) {
      return VOICE_REFUSALS.origin;
    }

    const token = app.parseCookie(headers.cookie ?? '')[SESSION_COOKIE];
    const session = token
      ? await findSessionUser(ctx.db, token, ctx.sessionPolicy, ctx.clock(), ctx.sessionCache)
      : null;
    if (!session) return VOICE_REFUSALS.session;
    if (session.user.id !== query.data.userId) return VOICE_REFUSALS.wrongUser;

    const { challengeId, tournamentMatchId } = query.data;
    if (tournamentMatchId !== undefined) {
      const match = await findTournamentMatch(ctx.db, tournamentMatchId);
      if (!match || (session.user.id !== match.playerAId && session.user.id !== match.playerBId))
        return VOICE_REFUSALS.notParticipant;
      if (match.status !== 'playing') return VOICE_REFUSALS.matchNotPlaying;
    } else {
      const row =
        challengeId === undefined ? undefined : await findChallengeRow(ctx.db, challengeId);
      const { creatorId, acceptorId, status } = row?.challenge ?? {};
      if (!row || (session.user.id !== creatorId && session.user.id !== acceptorId)) {
        return VOICE_REFUSALS.notParticipant;
      }
      if (status !== 'accepted') return VOICE_REFUSALS.notAccepted;
    }
    return {
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
  };
  // socket.io does not await a middleware: whatever `admit` throws (a database that is down)
  // must reach `next` as a refusal, never become a rejection nobody handles.
  io.use((socket, next) => {
    admit(socket).then(
      (admitted) => {
        if (typeof admitted === 'string') return next(new Error(admitted));
        socket.data = admitted;
        return next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'a voice handshake could not be checked');
        next(new Error(VOICE_REFUSALS.unavailable));
      },
    );
  });

  /** Passes a signal on to the other player, within the window's count and size. */
  const relay = (socket: VoiceSocket, payload: unknown): void => {
    const { userId, room } = socket.data;
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
  };

  /**
   * Puts the socket in its call's room and tells the players already there that this one
   * arrived, and this one who is already there, so that whichever of the two comes second, the
   * creator learns it should call.
   */
  const join = async (socket: VoiceSocket): Promise<void> => {
    const { userId, room } = socket.data;
    await socket.join(room);
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
  };

  io.on('connection', (socket) => {
    // Handlers first: a signal that arrives while the join below awaits must not be lost. A
    // handler that throws would end the process (an event emitter has no one to tell): a
    // payload too deep to measure is dropped like any other bad one.
    socket.on('signal', (payload) => {
      try {
        relay(socket, payload);
      } catch (error) {
        app.log.debug({ err: error }, 'a voice signal could not be relayed');
      }
    });
    socket.on('disconnect', () => {
      socket.to(socket.data.room).emit('user-left', socket.data.userId);
    });
    join(socket).catch((error: unknown) => {
      app.log.warn({ err: error, room: socket.data.room }, 'could not join the voice room');
      socket.disconnect(true);
    });
  });

  /** Ends this instance's calls whose socket data meets `predicate`. */
  const disconnectWhere = (predicate: (data: VoiceSocketData) => boolean): void => {
    io.local.fetchSockets().then(
      (sockets) => {
        for (const socket of sockets) if (predicate(socket.data)) socket.disconnect(true);
      },
      (error: unknown) => app.log.warn({ err: error }, 'could not end voice calls'),
    );
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
      disconnectWhere((data) => data.challengeId === event.challengeId);
    } else if (event.type === 'sessions-revoked') {
      disconnectWhere((data) => data.userId === event.userId);
    } else if (event.type === 'session-revoked') {
      disconnectWhere((data) => data.tokenHash === event.tokenHash);
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
