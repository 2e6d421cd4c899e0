import '@testing-library/jest-dom/vitest';
import '#shared/validation.ts';
import { act, cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { dismissToast } from '#client/lib/toast.ts';
import { FakeWebSocket } from '#client/test-utils/fake-web-socket.ts';

// jsdom's WebSocket would try to reach a server on every signed-in render. The account socket
// talks to this double instead, in every test; realtime tests drive it as the server.
globalThis.WebSocket = FakeWebSocket as unknown as typeof WebSocket;

beforeEach(() => {
  FakeWebSocket.reset();
});

afterEach(() => {
  // The toast list outlives a render; a toast one test raised must not satisfy the next.
  act(() => dismissToast());
  cleanup();
});
