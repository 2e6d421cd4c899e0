import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { NotificationView } from '#shared/contracts/notifications.ts';

/**
 * What one part of the server tells the others after a commit. Events cross instances when the
 * bus is PostgreSQL-backed, so they are plain JSON: money travels as a decimal string of cents.
 */
export type AppEvent =
  /** Something the player is told (docs/fair-play.md), once it has committed. */
  | { type: 'notification'; userId: number; notification: NotificationView }
  | {
      type: 'balance';
      userId: number;
      /** The API's `balance`: available plus under review (docs/fair-play.md). */
      balanceCents: string;
      availableCents: string;
      underReviewCents: string;
    }
  /** A challenge changed; `audience` is who may see it: everyone, or its players. */
  | { type: 'challenge'; challengeId: number; status: string; audience: 'all' | number[] }
  /**
   * A tournament, its entries or its bracket changed (docs/tournaments.md): everyone may see it.
   */
  | { type: 'tournament'; tournamentId: number; status: string }
  /** Every session of the user ended (deletion, admin action): close all their sockets. */
  | { type: 'sessions-revoked'; userId: number }
  /** One session ended (logout): close the sockets opened with it. */
  | { type: 'session-revoked'; tokenHash: string }
  /** A user's account details changed: copies of the account held in memory are out of date. */
  | { type: 'user-changed'; userId: number }
  /**
   * Never published: a PostgreSQL bus tells its own instance that its listening connection was
   * re-opened, so events may have been missed; whatever was derived from them must be dropped.
   */
  | { type: 'events-missed' };

export type EventHandler = (event: AppEvent) => void;

export interface EventBus {
  /**
   * Delivers the event to this instance's subscribers at once and sends it to the others.
   * Resolves once it has left; a failure to send is the bus's to log, and never rejects, so a
   * caller that has already committed need not wait.
   */
  publish(event: AppEvent): Promise<void>;
  subscribe(handler: EventHandler): () => void;
  close(): Promise<void>;
}

const CHANNEL = 'app_events';
// PostgreSQL refuses NOTIFY payloads of 8000 bytes or more.
const PAYLOAD_BYTES_MAX = 7900;

/** What one NOTIFY carries: the events of one instance, which skips its own. */
interface Envelope {
  source: string;
  events: AppEvent[];
}

/** How every envelope from `source` begins. */
const openingOf = (source: string) => `{"source":${JSON.stringify(source)},"events":[`;

/** Serialized events in envelopes from `source`, each small enough for one NOTIFY. */
function batches(source: string, events: string[]): string[] {
  const open = openingOf(source);
  const payload = (batch: string[]) => `${open}${batch.join(',')}]}`;
  const payloads: string[] = [];
  let current: string[] = [];
  let bytes = open.length + 2;
  for (const event of events) {
    const size = Buffer.byteLength(event) + 1;
    if (current.length > 0 && bytes + size > PAYLOAD_BYTES_MAX) {
      payloads.push(payload(current));
      current = [];
      bytes = open.length + 2;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) payloads.push(payload(current));
  return payloads;
}

class LocalDispatcher {
  private readonly emitter = new EventEmitter();
  constructor() {
    // One listener per socket server and per test: not a leak.
    this.emitter.setMaxListeners(0);
  }
  dispatch(event: AppEvent): void {
    this.emitter.emit(CHANNEL, event);
  }
  subscribe(handler: EventHandler): () => void {
    this.emitter.on(CHANNEL, handler);
    return () => this.emitter.off(CHANNEL, handler);
  }
}

/** The default: one process, events delivered synchronously to this process's subscribers. */
export function createLocalBus(): EventBus {
  const dispatcher = new LocalDispatcher();
  return {
    publish: async (event) => dispatcher.dispatch(event),
    subscribe: (handler) => dispatcher.subscribe(handler),
    close: async () => {},
  };
}

/**
 * Resolves after the event loop's current turn: its promise callbacks and I/O callbacks have run.
 */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface BusLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Events through PostgreSQL LISTEN/NOTIFY, so that every instance sharing the database hears
 * every event. An instance's own events reach its subscribers at once, as on the local bus (a
 * cache it keeps is current before the request that changed it answers), and are skipped when
 * they come back through its listening connection. That connection is re-opened after a failure;
 * events sent while it was down are lost, which `events-missed` tells the subscribers.
 */
export async function createPostgresBus(pool: pg.Pool, logger: BusLogger): Promise<EventBus> {
  const dispatcher = new LocalDispatcher();
  const source = randomUUID();
  const ownOpening = openingOf(source);
  let closed = false;
  let listener: pg.PoolClient | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  // The reconnect under way, if any: `close` waits for it, or the connection it is opening would
  // stay checked out of the pool after the bus is closed, and the pool could never end.
  let reconnecting: Promise<void> | undefined;

  const connect = async (afterFailure: boolean): Promise<void> => {
    const client = await pool.connect();
    if (closed) {
      client.release(true);
      return;
    }
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      // This instance's own events come back too; `batches` writes the source first, so they
      // are known by their opening bytes without parsing the whole payload.
      if (message.payload.startsWith(ownOpening)) return;
      try {
        const envelope = JSON.parse(message.payload) as Envelope;
        for (const event of envelope.events) dispatcher.dispatch(event);
      } catch (error) {
        logger.warn({ err: error }, 'unreadable event on the bus');
      }
    });
    client.on('error', (error) => {
      // A connection already given back (closed, or replaced after an earlier failure) is no
      // longer ours to release.
      if (listener !== client) return;
      logger.error({ err: error }, 'event bus connection failed; reconnecting');
      listener = undefined;
      client.release(true);
      scheduleReconnect(1000);
    });
    listener = client;
    try {
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      if (listener === client) {
        listener = undefined;
        client.release(true);
      }
      throw error;
    }
    if (afterFailure && !closed) dispatcher.dispatch({ type: 'events-missed' });
  };

  const scheduleReconnect = (delayMs: number): void => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      reconnecting = connect(true)
        .catch((error: unknown) => {
          logger.error({ err: error }, 'event bus reconnect failed');
          scheduleReconnect(Math.min(delayMs * 2, 30_000));
        })
        .finally(() => {
          reconnecting = undefined;
        });
    }, delayMs);
    retryTimer.unref();
  };

  await connect(false);

  // Events published while a NOTIFY is on its way wait and leave together in the next one: under
  // load, one statement carries the events of many transactions (one NOTIFY per event cost a
  // round trip and a commit each). When idle, an event leaves at the end of the event loop's
  // turn, with every other one published in it: a request that publishes its balances, its
  // news and its challenge's change together sends one NOTIFY, not three.
  let queued: string[] = [];
  let next: Promise<void> | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async (): Promise<void> => {
    const events = queued;
    queued = [];
    next = undefined;
    try {
      for (const payload of batches(source, events)) {
        await pool.query('select pg_notify($1, $2)', [CHANNEL, payload]);
      }
    } catch (error) {
      // The other instances miss these events; what they derived from them expires (decision 7).
      logger.error({ err: error, events: events.length }, 'events could not reach other instances');
    }
  };

  return {
    publish: (event) => {
      dispatcher.dispatch(event);
      queued.push(JSON.stringify(event));
      if (!next) {
        next = inFlight.then(endOfTurn).then(flush);
        inFlight = next;
      }
      return next;
    },
    subscribe: (handler) => dispatcher.subscribe(handler),
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      // Once closed, a reconnect under way gives its connection back itself; waiting for it
      // means the pool has it back before this returns.
      await reconnecting;
      // Events already published still leave before the pool closes.
      await inFlight.catch(() => undefined);
      if (listener) {
        const client = listener;
        listener = undefined;
        // Closed rather than returned to the pool: its listeners must not ride along with the
        // connection into someone else's queries.
        client.release(true);
      }
    },
  };
}
