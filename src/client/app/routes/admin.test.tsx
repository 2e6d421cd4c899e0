import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function adminCalls(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls.filter(([input]) =>
    parseRequestUrl(String(input)).path.startsWith('/api/admin'),
  );
}

describe('admin page access', () => {
  it('shows ACCESS DENIED - ADMIN PRIVILEGES REQUIRED to a player and calls no admin API', async () => {
    const fetchMock = stubFetch(({ url }) =>
      url === '/api/user'
        ? jsonResponse(200, makeUser({ isAdmin: false }))
        : jsonResponse(403, { code: 'FORBIDDEN', message: 'Forbidden' }),
    );
    renderApp('/admin');

    expect(
      await screen.findByRole('heading', { name: 'ACCESS DENIED - ADMIN PRIVILEGES REQUIRED' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'BACK TO HOME' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(adminCalls(fetchMock)).toHaveLength(0);
  });

  it('gives an admin the dashboard with every section as a tab, and the ledger line', async () => {
    stubFetch(({ url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/ledger-health') {
        return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
      }
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    renderApp('/admin');

    const tabs = await screen.findByRole('tablist', { name: 'Admin sections' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual([
      'OVERVIEW',
      'USERS',
      'COMPLETED CHALLENGES',
      'DISPUTES',
      'PAYOUTS',
      'ID VERIFICATION',
      'REPORTS',
      'RISK',
      'CHARGEBACKS',
      'TAX REPORT',
      'AUDIT LOG',
    ]);
    expect(await screen.findByText('LEDGER OK')).toBeInTheDocument();
    // The overview opens first; this stand-in server has none to give.
    expect(within(tabs).getByRole('tab', { name: 'OVERVIEW' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByText('COULD NOT LOAD THE OVERVIEW')).toBeInTheDocument();
    await user.click(within(tabs).getByRole('tab', { name: 'USERS' }));
    expect(await screen.findByText('NO USERS FOUND')).toBeInTheDocument();

    await user.click(within(tabs).getByRole('tab', { name: 'COMPLETED CHALLENGES' }));
    expect(await screen.findByText('NO COMPLETED CHALLENGES')).toBeInTheDocument();
  });
});
