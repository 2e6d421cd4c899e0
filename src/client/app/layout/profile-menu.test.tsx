import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function signedInAs(user: PublicUser) {
  let signedIn = true;
  return stubFetch(({ method, url }) => {
    if (method === 'POST' && url === '/api/logout') {
      signedIn = false;
      return new Response(null, { status: 204 });
    }
    if (url === '/api/user') {
      return signedIn
        ? jsonResponse(200, user)
        : jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'x' });
    }
    if (url.startsWith('/api/payouts')) return jsonResponse(200, []);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

async function openProfileMenu() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'PROFILE' }));
  await screen.findByRole('menu');
  return user;
}

describe('top bar', () => {
  it('shows the balance in dollars, labelled Coins and described as $ Blue Coins', async () => {
    signedInAs(makeUser({ balance: 12.5 }));
    renderApp('/');

    const chip = await screen.findByTitle('$ Blue Coins');
    expect(chip).toHaveTextContent('$12.50');
    expect(chip).toHaveTextContent('Coins');
    expect(screen.getByRole('link', { name: 'SKILLSTAKE' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'DEPOSIT FUNDS' })).toHaveAttribute('href', '/profile');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });
});

describe('profile menu', () => {
  it('offers PROFILE, PAYOUTS and LOGOUT, but no ADMIN DASHBOARD, to a player', async () => {
    signedInAs(makeUser({ isAdmin: false }));
    renderApp('/');
    await openProfileMenu();

    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(['PROFILE', 'PAYOUTS', 'LOGOUT']);
    expect(screen.queryByRole('menuitem', { name: 'ADMIN DASHBOARD' })).not.toBeInTheDocument();
  });

  it('adds ADMIN DASHBOARD for an admin, linking to /admin', async () => {
    signedInAs(makeUser({ isAdmin: true }));
    renderApp('/');
    await openProfileMenu();

    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(['PROFILE', 'PAYOUTS', 'ADMIN DASHBOARD', 'LOGOUT']);
    expect(screen.getByRole('menuitem', { name: 'ADMIN DASHBOARD' })).toHaveAttribute(
      'href',
      '/admin',
    );
  });

  it('navigates to a page chosen from the menu', async () => {
    signedInAs(makeUser());
    const { history } = renderApp('/');
    const user = await openProfileMenu();

    await user.click(screen.getByRole('menuitem', { name: 'PAYOUTS' }));

    expect(await screen.findByText('NO PAYOUT RECORDS FOUND')).toBeInTheDocument();
    expect(history.at(-1)).toBe('/payouts');
  });

  it('logs out, clears the user and returns to /auth', async () => {
    const fetchMock = signedInAs(makeUser());
    const { history } = renderApp('/');
    const user = await openProfileMenu();

    await user.click(screen.getByRole('menuitem', { name: 'LOGOUT' }));

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    await waitFor(() => expect(history.at(-1)).toBe('/auth'));
    expect(screen.queryByRole('button', { name: 'PROFILE' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/logout',
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
