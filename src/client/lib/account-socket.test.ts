import { SESSION_ENDED_CLOSE_CODE } from '#shared/contracts/realtime.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_RECONNECT } from '#shared/contracts/realtime.ts';
import { FakeWebSocket } from '#client/test-utils/fake-web-socket.ts';
import {
  AccountSocket,
  accountSocketUrl,
  reconnectDelayMs,
  type AccountEvent,
} from './account-socket.ts';

function startSocket() {
  const events: AccountEvent[] = [];
  const onSessionEnded = vi.fn();
  const onOpen = vi.fn();
  const warn = vi.fn();
  const socket = new AccountSocket({
    url: 'ws://arena.test/ws',
    createSocket: (url) => new FakeWebSocket(url),
    onEvent: (event) => events.push(event),
    onOpen,
    onSessionEnded,
    warn,
  });
  socket.start();
  return { socket, events, onSessionEnded, onOpen, warn };
}

/** Lets `ms` pass and reports how many sockets exist afterwards. */
function socketsAfter(ms: number): number {
  vi.advanceTimersByTime(ms);
  return FakeWebSocket.instances.length;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('reconnect delay', () => {
  it('starts at 1 s, doubles, and is capped at 30 s', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => reconnectDelayMs(attempt));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(REALTIME_RECONNECT.maxAttempts).toBe(5);
  });
});

describe('account socket url', () => {
  it('follows the page: wss for https, ws for http, same host, path /ws', () => {
    expect(accountSocketUrl({ protocol: 'https:', host: 'play.example.com' })).toBe(
      'wss://play.example.com/ws',
    );
    expect(accountSocketUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe(
      'ws://localhost:3000/ws',
    );
  });
});

describe('account socket reconnects', () => {
  it('waits 1, 2, 4, 8 and 16 s between attempts, then gives up after 5', () => {
    const { warn } = startSocket();
    expect(FakeWebSocket.instances).toHaveLength(1);

    const schedule = [1000, 2000, 4000, 8000, 16_000];
    schedule.forEach((delayMs, index) => {
      FakeWebSocket.latest().serverClose(1006);
      // Nothing happens a moment early; the next attempt starts exactly on time.
      expect(socketsAfter(delayMs - 1)).toBe(index + 1);
      expect(socketsAfter(1)).toBe(index + 2);
    });

    FakeWebSocket.latest().serverClose(1006);
    expect(socketsAfter(10 * 60_000)).toBe(6);
    expect(warn).toHaveBeenCalledWith('Gave up reconnecting after 5 attempts', undefined);
  });

  it('resets the attempt count after a successful open', () => {
    startSocket();
    FakeWebSocket.latest().serverClose();
    socketsAfter(1000);
    FakeWebSocket.latest().serverClose();
    socketsAfter(2000);
    FakeWebSocket.latest().serverClose();
    socketsAfter(4000);
    expect(FakeWebSocket.instances).toHaveLength(4);

    FakeWebSocket.latest().serverOpen();
    FakeWebSocket.latest().serverClose();

    // Back to the first delay rather than the fourth (8 s).
    expect(socketsAfter(999)).toBe(4);
    expect(socketsAfter(1)).toBe(5);
  });

  it('says so on every open, the first and each one after a reconnect', () => {
    const { onOpen } = startSocket();
    expect(onOpen).not.toHaveBeenCalled();
    FakeWebSocket.latest().serverOpen();
    expect(onOpen).toHaveBeenCalledTimes(1);

    FakeWebSocket.latest().serverClose(1006);
    socketsAfter(1000);
    expect(onOpen).toHaveBeenCalledTimes(1);
    FakeWebSocket.latest().serverOpen();
    expect(onOpen).toHaveBeenCalledTimes(2);
  });

  it('keeps one connection attempt at a time', () => {
    const { socket } = startSocket();
    socket.start();
    expect(FakeWebSocket.instances).toHaveLength(1);

    // An error is followed by a close: only the close schedules the next attempt, once.
    FakeWebSocket.latest().serverError();
    FakeWebSocket.latest().serverClose();
    expect(socketsAfter(60_000)).toBe(2);
  });

  it('does not reconnect when the server ends the session (4001), and says so', () => {
    const { onSessionEnded } = startSocket();
    FakeWebSocket.latest().serverOpen();
    FakeWebSocket.latest().serverClose(SESSION_ENDED_CLOSE_CODE);

    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(socketsAfter(60_000)).toBe(1);
  });

  it('closes for good on stop (sign-out), even with a retry pending', () => {
    const { socket } = startSocket();
    const first = FakeWebSocket.latest();
    first.serverOpen();
    socket.stop();
    expect(first.closedByClient).toEqual({ code: 1000, reason: 'signed out' });
    expect(socketsAfter(60_000)).toBe(1);

    const again = startSocket();
    FakeWebSocket.latest().serverClose();
    again.socket.stop();
    expect(socketsAfter(60_000)).toBe(2);
  });
});

describe('account socket messages', () => {
  it('answers PING with PONG and passes the other events on', () => {
    const { events } = startSocket();
    const server = FakeWebSocket.latest();
    server.serverOpen();

    server.serverSend({ type: 'PING' });
    server.serverSend({ type: 'BALANCE_UPDATE', userId: 1, newBalance: 62.5 });
    server.serverSend({ type: 'CHALLENGE_UPDATED', challengeId: 11, status: 'accepted' });

    expect(server.sent).toEqual([JSON.stringify({ type: 'PONG' })]);
    expect(events).toEqual([
      { type: 'BALANCE_UPDATE', userId: 1, newBalance: 62.5 },
      { type: 'CHALLENGE_UPDATED', challengeId: 11, status: 'accepted' },
    ]);
  });

  it('logs unparseable and unknown messages and carries on', () => {
    const { events, warn } = startSocket();
    const server = FakeWebSocket.latest();
    server.serverOpen();

    server.serverSend('{not json');
    server.serverSend({ type: 'SURPRISE' });
    server.serverSend({ type: 'BALANCE_UPDATE', userId: 1, newBalance: 3 });

    expect(warn).toHaveBeenCalledWith('Ignored an unparseable message', '{not json');
    expect(warn).toHaveBeenCalledWith('Ignored an unknown message', { type: 'SURPRISE' });
    expect(events).toEqual([{ type: 'BALANCE_UPDATE', userId: 1, newBalance: 3 }]);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
