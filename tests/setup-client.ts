import '@testing-library/jest-dom/vitest';
import '#shared/validation.ts';
import { act, cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { dismissToast } from '#client/lib/toast.ts';
import { FakeWebSocket } from '#client/test-utils/fake-web-socket.ts';

// jsdom's WebSocket would try to reach a server on every signed-in render. The account socket
// talks to this double instead, in every test; realtime tests drive it as the server.
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;

// findBy… and waitFor give up after this long. Their default, one second, is shorter than the
// first lazy import of a route on a busy two-core CI machine, where the page is then missed
// although it comes; the wait still ends as soon as the page is there.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no canvas and no matchMedia, which the admin's chart library (uPlot) draws with and
// reads when it loads. A stand-in takes its place in every client test: the charts' tables, which
// hold the same figures, are what the tests read.
vi.mock('uplot', () => ({
  default: class {
    setSize() {}
    destroy() {}
  },
}));

beforeEach(() => {
  FakeWebSocket.reset();
});

afterEach(() => {
  // The toast list outlives a render; a toast one test raised must not satisfy the next.
  act(() => dismissToast());
  cleanup();
});
