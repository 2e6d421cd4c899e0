import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { FakeWebSocket } from '#client/test-utils/fake-web-socket.ts';
import { makeChallenge, makeCounts, parseRequestUrl } from '#client/test-utils/challenges.ts';
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

/** The page's account socket, opened, once the reads its opening starts have settled. */
async function signedInSocket(queryClient: QueryClient) {
  await screen.findByTitle('$ Blue Coins');
  await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
  const socket = FakeWebSocket.latest();
  act(() => socket.serverOpen());
  await waitFor(() => expect(queryClient.isFetching()).toBe(0));
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
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);
    expect(socket.url).toBe(`ws://${window.location.host}/ws`);

    act(() => socket.serverSend({ type: 'BALANCE_UPDATE', userId: 1, newBalance: 62.5 }));

    const toast = await findToast('Balance Updated');
    expect(toast).toHaveTextContent('Your new balance is $62.50');
    expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$62.50');
  });

  it("ignores another user's BALANCE_UPDATE", async () => {
    serverFor(makeUser({ id: 1, balance: 12.5 }));
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);

    act(() => socket.serverSend({ type: 'BALANCE_UPDATE', userId: 2, newBalance: 999 }));

    expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$12.50');
    expect(screen.queryByText('Balance Updated')).not.toBeInTheDocument();
  });

  it('says nothing of a BALANCE_UPDATE that arrives once the player is signed out here', async () => {
    serverFor(makeUser({ id: 1, balance: 12.5 }));
    const { queryClient } = renderApp('/');
    await signedInSocket(queryClient);
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
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);
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
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);
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
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'PROFILE' }));
    await user.click(await screen.findByRole('menuitem', { name: 'LOGOUT' }));

    await screen.findByRole('tab', { name: 'Login' });
    expect(socket.closedByClient).toEqual({ code: 1000, reason: 'signed out' });
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('asks who is signed in when the server ends the session (4001), without reconnecting', async () => {
    const { state, fetchMock } = serverFor(makeUser());
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);
    const userRequests = requestsTo(fetchMock, '/api/user');

    state.signedIn = false;
    act(() => socket.serverClose(4001));

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(requestsTo(fetchMock, '/api/user')).toBe(userRequests + 1);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('reads the balance and the lists again once the socket opens: what changed before reached no socket', async () => {
    let balance = 12.5;
    let open = [] as ReturnType<typeof makeChallenge>[];
    stubFetch(({ url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, makeUser({ id: 1, balance }));
      if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts());
      if (path === '/api/challenges') return jsonResponse(200, open);
      return jsonResponse(200, []);
    });
    renderApp('/');
    await screen.findByText('NO AVAILABLE CHALLENGES');
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$12.50');

    // A credit and a new challenge while the socket connects: their events reach no socket here.
    balance = 40;
    open = [makeChallenge({ game: 'Tekken 8' })];
    act(() => FakeWebSocket.latest().serverOpen());

    expect(await screen.findByText('Tekken 8')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$40.00'));
  });

  it('keeps a BALANCE_UPDATE when a read of the user answered before it lands afterwards', async () => {
    let balance = 12.5;
    let holdNextUserRead = false;
    let deliverHeldRead: (() => void) | undefined;
    stubFetch(({ url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') {
        // Answered now, with the balance of now, and delivered when the test says.
        const response = jsonResponse(200, makeUser({ id: 1, balance }));
        if (!holdNextUserRead) return response;
        holdNextUserRead = false;
        return new Promise<Response>((resolve) => (deliverHeldRead = () => resolve(response)));
      }
      if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts());
      return jsonResponse(200, []);
    });
    const { queryClient } = renderApp('/');
    const socket = await signedInSocket(queryClient);

    // The user is read again (as after accepting a challenge), and answered at $12.50...
    holdNextUserRead = true;
    act(() => void refreshSessionUser(queryClient));
    await waitFor(() => expect(deliverHeldRead).toBeDefined());
    // ...then the balance changes, its event arrives, and only then the older answer.
    balance = 62.5;
    act(() => socket.serverSend({ type: 'BALANCE_UPDATE', userId: 1, newBalance: 62.5 }));
    act(() => deliverHeldRead?.());

    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.getByTitle('$ Blue Coins')).toHaveTextContent('$62.50');
  });
});
