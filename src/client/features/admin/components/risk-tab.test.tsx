import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { Risk } from '#shared/contracts/insights.ts';
import { OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const RISK: Risk = {
  windowDays: 30,
  thresholds: {
    sharedAccountsMin: 2,
    pairMatchesMin: 5,
    pairWinShareMin: 0.9,
    withdrawnShareMin: 0.8,
    playShareMax: 0.25,
  },
  sharedDevices: [
    {
      device: '3f9a0c1b2d4e',
      browsers: ['Chrome 131 on Windows', 'Firefox 133 on Windows'],
      players: [
        { id: 11, username: 'twin_one' },
        { id: 12, username: 'twin_two' },
      ],
    },
  ],
  sharedNetworks: [
    {
      address: '203.0.113.7',
      players: [
        { id: 13, username: 'campus_a' },
        { id: 14, username: 'campus_b' },
        { id: 15, username: 'campus_c' },
      ],
    },
  ],
  lopsidedPairs: [
    {
      winner: { id: 21, username: 'taker' },
      loser: { id: 22, username: 'dumper' },
      matches: 10,
      winnerWins: 9,
      amountMoved: 175,
    },
  ],
  unplayedWithdrawals: [],
};

describe('the admin RISK tab', () => {
  it('lists each signal with links to the player pages, and says when one found nothing', async () => {
    stubFetch((request) => {
      const { path } = parseRequestUrl(request.url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/risk') return jsonResponse(200, RISK);
      if (path === '/api/admin/ledger-health') {
        return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
      }
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    const { history } = renderApp('/admin');
    await user.click(await screen.findByRole('tab', { name: 'RISK' }));

    const devices = await screen.findByRole('region', { name: 'SHARED DEVICE' });
    expect(devices).toHaveTextContent(
      'Accounts signed in on one device in the last 30 days (2 or more). They cannot play each other until an admin clears their link on a player page.',
    );
    const deviceRow = within(devices).getByRole('row', { name: /3f9a0c1b2d4e/ });
    expect(within(deviceRow).getByRole('rowheader')).toHaveTextContent('3f9a0c1b2d4e');
    expect(
      within(deviceRow)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Chrome 131 on Windows', 'Firefox 133 on Windows', 'twin_one', 'twin_two']);
    expect(within(deviceRow).getByRole('link', { name: 'twin_two' })).toHaveAttribute(
      'href',
      '/admin/players/12',
    );
    expect(within(devices).getByRole('region', { name: 'SHARED DEVICE, table' })).toBeVisible();

    const networks = screen.getByRole('region', { name: 'SHARED NETWORK' });
    expect(networks).toHaveTextContent(
      'Accounts signed in from one address in the last 30 days (2 or more). A carrier, a campus or a café can explain it, so it never holds a payout by itself.',
    );
    const networkRow = within(networks).getByRole('row', { name: /203\.0\.113\.7/ });
    expect(within(networkRow).getByRole('rowheader')).toHaveTextContent('203.0.113.7');
    expect(
      within(networkRow)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['campus_a', 'campus_b', 'campus_c']);
    expect(within(networks).queryByText('twin_one')).not.toBeInTheDocument();

    const pairs = screen.getByRole('region', { name: 'ONE-SIDED PAIRS' });
    expect(within(pairs).getByRole('row', { name: /taker/ })).toHaveTextContent(
      'takerdumper9 of 10$175.00',
    );
    const unplayed = screen.getByRole('region', {
      name: 'DEPOSITS WITHDRAWN UNPLAYED',
    });
    expect(unplayed).toHaveTextContent('Nothing found.');

    await user.click(within(pairs).getByRole('link', { name: 'dumper' }));
    expect(history.at(-1)).toBe('/admin/players/22');
  });
});
