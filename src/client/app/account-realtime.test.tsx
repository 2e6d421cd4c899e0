import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { FakeWebSocket } from '#client/test-utils/fake-web-socket.ts';
import { makeCounts, parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { applyAccountEvent } from './account-realtime.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A signed-in player whose session can be ended, as logout or the server would. */
function serverFor(user: PublicUser) {
  const state = { signedIn: true };
  const fetchMock = stubFetch(({ method, url }) => {
    const { path } = parseRequestUrl(url);
    if (method === 'POST' && path === '/api/logout') {
      state.signedIn = false;
      return new Response(null, { status: 204 });
    }
    if (path === '/api/user') {
      return state.signedIn
        ? jsonResponse(200, user)
        : jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Unauthorized: please log in' });
    }
    if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts());
    if (path === '/api/challenges') return jsonResponse(200, []);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { state, fetchMock };
}

async function signedInSocket() {
  await screen.findByTitle('$ Blue Coins');
  await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
  const socket = FakeWebSocket.latest();
  act(() => socket.serverOpen());
  return socket;
}

function requestsTo(fetchMock: ReturnType<typeof stubFetch>, path: string): number {
  return fetchMock.mock.calls.filter(([input]) => parseRequestUrl(String(input)).path === path)
    .length;
}

describe('account realtime', () => {
  it('connects to /ws on this host only once someone is signed in', async () => {
    stubFetch(() => jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'x' }));
    renderApp('/auth');
    await screen.findByRole('tab', { name: 'Login' });
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('puts a BALANCE_UPDATE for this user into the balance and toasts it', async () => {
    serverFor(makeUser({ id: 1, balance: 12.5 }));
    renderApp('/');
    const socket = await signedInSocket();
    expect(socket.url).toBe(`ws://${window.location.host}/ws`);

    act(() => socket.serverSend({ type: 'BALANCE_UPDATE', userId: 1, newBalance: 62.5 }));

    const toast = await findToast('Balance Updated');
    expect(toast).toHaveTextContent('Your new balance is $62.50');
    expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$62.50');
  });

  it("ignores another user's BALANCE_UPDATE", async () => {
    serverFor(makeUser({ id: 1, balance: 12.5 }));
    renderApp('/');
    const socket = await signedInSocket();

    act(() => socket.serverSend({ type: 'BALANCE_UPDATE', userId: 2, newBalance: 999 }));

    expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$12.50');
    expect(screen.queryByText('Balance Updated')).not.toBeInTheDocument();
  });

  it('says nothing of a BALANCE_UPDATE that arrives once the player is signed out here', async () => {
    serverFor(makeUser({ id: 1, balance: 12.5 }));
    const { queryClient } = renderApp('/');
    await signedInSocket();
    // The account was closed a moment ago; the sweep of its wallet to $0 arrives afterwards.
    act(() => queryClient.setQueryData(['user'], null));
    act(() =>
      applyAccountEvent(queryClient, 1, { type: 'BALANCE_UPDATE', userId: 1, newBalance: 0 }),
    );

    await screen.findByRole('tab', { name: 'Login' });
    expect(screen.queryByText('Balance Updated')).not.toBeInTheDocument();
  });

  it('refreshes the challenge lists and counts on CHALLENGE_UPDATED', async () => {
    const { fetchMock } = serverFor(makeUser({ id: 1 }));
    renderApp('/');
    const socket = await signedInSocket();
    await screen.findByText('NO AVAILABLE CHALLENGES');
    const listsBefore = requestsTo(fetchMock, '/api/challenges');
    const countsBefore = requestsTo(fetchMock, '/api/challenges/counts');

    act(() => socket.serverSend({ type: 'CHALLENGE_UPDATED', challengeId: 11, status: 'open' }));

    await waitFor(() => expect(requestsTo(fetchMock, '/api/challenges')).toBe(listsBefore + 1));
    expect(requestsTo(fetchMock, '/api/challenges/counts')).toBe(countsBefore + 1);
  });

  it('reads the user again on news of a suspension or its lifting, for the banner', async () => {
    let current = makeUser({ id: 1 });
    stubFetch(({ url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, current);
      if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts());
      return jsonResponse(200, []);
    });
    renderApp('/');
    const socket = await signedInSocket();
    const news = (kind: string) => ({
      type: 'NOTIFICATION',
      notification: {
        id: 1,
        kind,
        challengeId: null,
        title: 'Account news',
        body: 'Account news',
        createdAt: '2031-03-01T12:00:00.000Z',
        read: false,
      },
    });

    current = makeUser({ id: 1, suspension: { reason: 'Match fixing', until: null } });
    act(() => socket.serverSend(news('account_suspended')));
    expect(await screen.findByRole('region', { name: 'Account suspended' })).toHaveTextContent(
      'Your account is suspended: Match fixing',
    );

    current = makeUser({ id: 1 });
    act(() => socket.serverSend(news('suspension_lifted')));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Account suspended' })).toBeNull(),
    );
  });

  it('closes the socket on sign-out and does not reconnect', async () => {
    serverFor(makeUser());
    renderApp('/');
    const socket = await signedInSocket();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'PROFILE' }));
    await user.click(await screen.findByRole('menuitem', { name: 'LOGOUT' }));

    await screen.findByRole('tab', { name: 'Login' });
    expect(socket.closedByClient).toEqual({ code: 1000, reason: 'signed out' });
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('asks who is signed in when the server ends the session (4001), without reconnecting', async () => {
    const { state, fetchMock } = serverFor(makeUser());
    renderApp('/');
    const socket = await signedInSocket();
    const userRequests = requestsTo(fetchMock, '/api/user');

    state.signedIn = false;
    act(() => socket.serverClose(4001));

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/user')).toBe(userRequests + 1);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
