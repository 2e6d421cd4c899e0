import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import {
  clientMessageSchema,
  SESSION_ENDED_CLOSE_CODE,
  type ServerMessage,
} from '#shared/contracts/realtime.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../../plugins/access.ts';
import { isAllowedOrigin } from '../../plugins/origin-guard.ts';

const BROADCAST_SLICE = 500;

interface Connection {
  userId: number;
  tokenHash: string;
  alive: boolean;
}

/**
 * The account socket `/ws` (docs/product.md#data, docs/product.md#states,
 * docs/architecture.md#realtime): one per open tab of a signed-in user. The server pings on an
 * interval and drops sockets that stopped answering; every committed balance change reaches all of
 * its owner's tabs, and no one else's.
 */
export const accountSocket = fp(
  async (app: FastifyInstance, options: { ctx: AppContext; pingIntervalMs: number }) => {
    const { ctx } = options;
    const connections = new Map<WebSocket, Connection>();
    const byUser = new Map<number, Set<WebSocket>>();

    // A message is serialized once, however many sockets it goes to: an open challenge is
    // announced to every connected player.
    const send = (socket: WebSocket, text: string): void => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    const sendToUser = (userId: number, message: ServerMessage): void => {
      const sockets = byUser.get(userId);
      if (!sockets) return;
      const text = JSON.stringify(message);
      for (const socket of sockets) send(socket, text);
    };
    const PING = JSON.stringify({ type: 'PING' } satisfies ServerMessage);
    // A message for everyone goes out a slice of sockets at a time, yielding in between, so that
    // a player's own update (a balance) is not held up behind thousands of sends. Every message
    // on this socket only tells the client to refetch, so their order across slices is free.
    const broadcast = (text: string): void => {
      const targets = [...connections.keys()];
      let index = 0;
      const sendSlice = (): void => {
        const end = Math.min(index + BROADCAST_SLICE, targets.length);
        for (; index < end; index += 1) {
          const socket = targets[index];
          if (socket) send(socket, text);
        }
        if (index < targets.length) setImmediate(sendSlice);
      };
      sendSlice();
    };
    const forget = (socket: WebSocket): void => {
      const connection = connections.get(socket);
      if (!connection) return;
      connections.delete(socket);
      const sockets = byUser.get(connection.userId);
      sockets?.delete(socket);
      if (sockets?.size === 0) byUser.delete(connection.userId);
    };

    const unsubscribe = ctx.bus.subscribe((event) => {
      switch (event.type) {
        case 'balance':
          sendToUser(event.userId, {
            type: 'BALANCE_UPDATE',
            userId: event.userId,
            newBalance: centsToDollarNumber(BigInt(event.balanceCents)),
            available: centsToDollarNumber(BigInt(event.availableCents)),
            underReview: centsToDollarNumber(BigInt(event.underReviewCents)),
          });
          break;
        case 'notification':
          sendToUser(event.userId, { type: 'NOTIFICATION', notification: event.notification });
          break;
        case 'challenge': {
          const message: ServerMessage = {
            type: 'CHALLENGE_UPDATED',
            challengeId: event.challengeId,
            status: event.status,
          };
          if (event.audience === 'all') broadcast(JSON.stringify(message));
          else for (const userId of new Set(event.audience)) sendToUser(userId, message);
          break;
        }
        case 'tournament': {
          const message: ServerMessage = {
            type: 'TOURNAMENT_UPDATED',
            tournamentId: event.tournamentId,
            status: event.status,
          };
          broadcast(JSON.stringify(message));
          break;
        }
        case 'sessions-revoked':
          for (const socket of byUser.get(event.userId) ?? [])
            socket.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
          break;
        case 'session-revoked':
          for (const [socket, connection] of connections) {
            if (connection.tokenHash === event.tokenHash)
              socket.close(SESSION_ENDED_CLOSE_CODE, 'session ended');
          }
          break;
      }
    });

    const beat = () => {
      for (const [socket, connection] of connections) {
        if (!connection.alive) {
          socket.terminate();
          forget(socket);
          continue;
        }
        connection.alive = false;
        send(socket, PING);
      }
    };
    // Node runs due timers before it reads the sockets: after a pause of the process (a long
    // garbage collection, a starved CPU) the beat would judge sockets whose PONG is already
    // waiting to be read. setImmediate judges after this turn's reads.
    const heartbeat = setInterval(() => setImmediate(beat), options.pingIntervalMs);
    heartbeat.unref();

    app.addHook('onClose', async () => {
      clearInterval(heartbeat);
      unsubscribe();
      for (const socket of connections.keys()) socket.close(1001, 'server shutting down');
    });

    app.get(
      '/ws',
      {
        websocket: true,
        config: { access: 'user' },
        preValidation: async (request) => {
          if (!isAllowedOrigin(request, ctx.publicOrigin)) {
            throw new AppError('CROSS_ORIGIN_REFUSED', 'Cross-origin request refused');
          }
        },
      },
      (socket, request) => {
        const user = requireUser(request);
        const tokenHash = request.sessionTokenHash;
        if (!tokenHash) throw new Error('an authenticated socket must have a session');
        connections.set(socket, { userId: user.id, tokenHash, alive: true });
        let sockets = byUser.get(user.id);
        if (!sockets) {
          sockets = new Set();
          byUser.set(user.id, sockets);
        }
        sockets.add(socket);

        socket.on('message', (data) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(String(data));
          } catch {
            request.log.debug('unparseable message on the account socket');
            return;
          }
          if (clientMessageSchema.safeParse(parsed).success) {
            const connection = connections.get(socket);
            if (connection) connection.alive = true;
          }
        });
        socket.on('close', () => forget(socket));
        socket.on('error', () => forget(socket));
      },
    );
  },
  { name: 'account-socket', dependencies: ['@fastify/websocket', 'access-control'] },
);
