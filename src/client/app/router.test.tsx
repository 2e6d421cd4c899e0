import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function signedOut() {
  return stubFetch(({ url }) =>
    url === '/api/user'
      ? jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Not signed in' })
      : jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' }),
  );
}

describe('protected routes', () => {
  it('shows a spinner while the user loads, then sends an anonymous visitor to /auth', async () => {
    signedOut();
    const { history } = renderApp('/profile');

    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(history.at(-1)).toBe('/auth');
    expect(screen.queryByRole('heading', { name: 'ace_player' })).not.toBeInTheDocument();
  });

  it('treats a failed user fetch as no user', async () => {
    stubFetch(() => new Response('boom', { status: 500 }));
    const { history } = renderApp('/payouts');

    expect(await screen.findByRole('tab', { name: 'Register' })).toBeInTheDocument();
    expect(history.at(-1)).toBe('/auth');
  });

  it('renders the page for a signed-in user', async () => {
    stubFetch(({ url }) => {
      if (url === '/api/user') return jsonResponse(200, makeUser());
      if (url.startsWith('/api/transactions')) {
        return jsonResponse(200, { items: [], nextBefore: null });
      }
      return jsonResponse(404, {});
    });
    const { history } = renderApp('/profile');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'ace_player' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('NO TRANSACTIONS YET')).toBeInTheDocument();
    expect(history).toEqual(['/profile']);
  });

  it('sends a signed-in user away from /auth to the home page', async () => {
    stubFetch(({ url }) =>
      url === '/api/user' ? jsonResponse(200, makeUser()) : jsonResponse(404, {}),
    );
    const { history } = renderApp('/auth');

    expect(await screen.findByRole('heading', { name: 'SKILL CHALLENGES' })).toBeInTheDocument();
    await waitFor(() => expect(history.at(-1)).toBe('/'));
  });

  it('shows the 404 page for an unknown path, with a link home', async () => {
    signedOut();
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'NOT FOUND' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'BACK TO HOME' })).toHaveAttribute('href', '/');
  });
});
