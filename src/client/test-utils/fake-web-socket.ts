import type { SocketLike } from '#client/lib/account-socket.ts';

/**
 * A stand-in for the browser's WebSocket at the network boundary. Each instance records what the
 * client sent, and the test plays the server: open it, push messages, close it with a code.
 * Nothing here talks to a network, so no test can reach a real server by accident.
 */
export class FakeWebSocket implements SocketLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;

  /** Every socket created since the last {@link FakeWebSocket.reset}, oldest first. */
  static instances: FakeWebSocket[] = [];

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  static latest(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('no WebSocket has been created');
    return socket;
  }

  readonly url: string;
  readyState: number = FakeWebSocket.CONNECTING;
  readonly sent: string[] = [];
  /** How the client closed this socket, if it did. */
  closedByClient: { code: number | undefined; reason: string | undefined } | null = null;

  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;

  constructor(url: string | URL) {
    this.url = String(url);
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN)
      throw new Error('send() on a socket that is not open');
    this.sent.push(data);
  }

  close(code?: number, reason?: string): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.closedByClient = { code, reason };
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code: code ?? 1005, wasClean: true }));
  }

  /** The server accepts the connection. */
  serverOpen(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** The server sends a frame: objects as JSON, strings as they are. */
  serverSend(message: unknown): void {
    const data = typeof message === 'string' ? message : JSON.stringify(message);
    this.onmessage?.(new MessageEvent('message', { data }));
  }

  /** The connection ends from the server's side or the network's (1006: dropped). */
  serverClose(code = 1006): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code, wasClean: code !== 1006 }));
  }

  serverError(): void {
    this.onerror?.(new Event('error'));
  }

  get isOpen(): boolean {
    return this.readyState === FakeWebSocket.OPEN;
  }
}
