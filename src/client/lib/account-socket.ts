import {
  REALTIME_RECONNECT,
  serverMessageSchema,
  type ClientMessage,
  type ServerMessage,
  SESSION_ENDED_CLOSE_CODE,
} from '#shared/contracts/realtime.ts';

/**
 * The close code the server uses when the session behind a socket has ended (logout elsewhere,
 * an admin action). Reconnecting would only be refused again, so the client stops and lets the
 * app find out who, if anyone, is still signed in.
 */

export type ReconnectPolicy = typeof REALTIME_RECONNECT;

/**
 * The wait before reconnect attempt `attempt` (1-based): 1 s, 2 s, 4 s, … capped
 * (docs/product.md#states).
 */
export function reconnectDelayMs(
  attempt: number,
  policy: ReconnectPolicy = REALTIME_RECONNECT,
): number {
  return Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

/** The part of the browser's WebSocket this client uses, so tests can hand in a double. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Every message but PING, which the client answers itself. */
export type AccountEvent = Exclude<ServerMessage, { type: 'PING' }>;

export interface AccountSocketOptions {
  url: string;
  onEvent: (event: AccountEvent) => void;
  /**
   * Called on every successful open, the first and each one after a reconnect. From then on the
   * server sends this account's events here; what happened before (while the page read its
   * data, while the socket was down) was sent to no socket of this page.
   */
  onOpen?: () => void;
  /** The server closed with {@link SESSION_ENDED_CLOSE_CODE}: no reconnect follows. */
  onSessionEnded: () => void;
  createSocket?: (url: string) => SocketLike;
  /** Where unparseable messages and socket errors are reported; they are never fatal. */
  warn?: (message: string, detail?: unknown) => void;
  policy?: ReconnectPolicy;
}

function warnInConsole(message: string, detail?: unknown): void {
  // A broken realtime message is worth a line for whoever debugs the page, and nothing more.
  // eslint-disable-next-line no-console
  console.warn(`[account socket] ${message}`, detail);
}

/** `ws:` or `wss:` to match the page, same host, path /ws (docs/product.md#calls). */
export function accountSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/ws`;
}

/**
 * The account socket of one signed-in session (docs/product.md#states). It keeps at most one
 * connection (or connection attempt) at a time, answers PING with PONG, and after an unexpected
 * close reconnects up to `maxAttempts` times with a doubling, capped delay; a successful open
 * resets the count.
 */
export class AccountSocket {
  private readonly options: AccountSocketOptions;
  private readonly policy: ReconnectPolicy;
  private socket: SocketLike | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reconnect attempts made since the last successful open. */
  private attempts = 0;
  private running = false;

  constructor(options: AccountSocketOptions) {
    this.options = options;
    this.policy = options.policy ?? REALTIME_RECONNECT;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempts = 0;
    this.connect();
  }

  /** Closes the connection for good (sign-out, unmount); nothing reconnects afterwards. */
  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      detach(socket);
      socket.close(1000, 'signed out');
    }
  }

  private connect(): void {
    this.retryTimer = undefined;
    if (!this.running || this.socket) return;
    let socket: SocketLike;
    try {
      socket = (this.options.createSocket ?? createBrowserSocket)(this.options.url);
    } catch (error) {
      this.warn('Could not open the account socket', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.options.onOpen?.();
    };
    socket.onmessage = (event) => this.receive(socket, event.data);
    // An error is always followed by a close event, which decides about reconnecting.
    socket.onerror = (event) => this.warn('Account socket error', event.type);
    socket.onclose = (event) => this.closed(socket, event.code);
  }

  private receive(socket: SocketLike, data: unknown): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      this.warn('Ignored an unparseable message', data);
      return;
    }
    const message = serverMessageSchema.safeParse(parsed);
    if (!message.success) {
      this.warn('Ignored an unknown message', parsed);
      return;
    }
    if (message.data.type === 'PING') {
      const pong: ClientMessage = { type: 'PONG' };
      socket.send(JSON.stringify(pong));
      return;
    }
    this.options.onEvent(message.data);
  }

  private closed(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    detach(socket);
    this.socket = null;
    if (!this.running) return;
    if (code === SESSION_ENDED_CLOSE_CODE) {
      this.running = false;
      this.options.onSessionEnded();
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.attempts >= this.policy.maxAttempts) {
      this.running = false;
      this.warn(`Gave up reconnecting after ${this.attempts} attempts`);
      return;
    }
    this.attempts += 1;
    this.retryTimer = setTimeout(
      () => this.connect(),
      reconnectDelayMs(this.attempts, this.policy),
    );
  }

  private warn(message: string, detail?: unknown): void {
    (this.options.warn ?? warnInConsole)(message, detail);
  }
}

function createBrowserSocket(url: string): SocketLike {
  return new WebSocket(url);
}

function detach(socket: SocketLike): void {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onerror = null;
  socket.onclose = null;
}
