import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { addDays, dayOf, INSIGHTS_MESSAGES, type Overview } from '#shared/contracts/insights.ts';
import { OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

// jsdom has no ResizeObserver, which a chart follows its width with.
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** An overview of `from`..`to` whose every day holds the same figures. */
function overviewOf(from: string, to: string): Overview {
  const day = {
    stakesVolume: 20,
    feesEarned: 1,
    deposits: 50.5,
    payouts: 10,
    netHousePosition: 1,
    activePlayers: 2,
    registrations: 1,
    completedChallenges: 1,
    disputeRate: 0.25,
  };
  const daily = [];
  for (let date = from; date <= to; date = addDays(date, 1)) daily.push({ date, ...day });
  return {
    from,
    to,
    ...day,
    stakesVolume: 20 * daily.length,
    deposits: 50.5 * daily.length,
    registrations: daily.length,
    debts: { total: 45.5, players: 2 },
    daily,
  };
}

function serve() {
  return stubFetch((request) => {
    const { path, query } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (path === '/api/admin/overview') {
      return jsonResponse(200, overviewOf(query.from ?? '', query.to ?? ''));
    }
    if (path === '/api/admin/ledger-health') {
      return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
    }
    return jsonResponse(200, []);
  });
}

const overviewCalls = (fetchMock: ReturnType<typeof stubFetch>) =>
  fetchMock.mock.calls
    .map(([input]) => parseRequestUrl(String(input)))
    .filter(({ path }) => path === '/api/admin/overview')
    .map(({ query }) => query);

describe('the admin OVERVIEW tab', () => {
  it('opens on the last 30 days with the KPI tiles, and a table beside each chart', async () => {
    const fetchMock = serve();
    renderApp('/admin');
    const figures = await screen.findByLabelText('Key figures');
    const today = dayOf(new Date());
    expect(overviewCalls(fetchMock)).toEqual([{ from: addDays(today, -29), to: today }]);
    const tile = (label: string) => within(figures).getByText(label).nextElementSibling;
    expect(tile('Stakes volume')).toHaveTextContent('$600.00');
    expect(tile('Deposits')).toHaveTextContent('$1,515.00');
    expect(tile('Dispute rate')).toHaveTextContent('25.0%');
    expect(tile('Registrations')).toHaveTextContent('30');
    expect(tile('Debts owed today')).toHaveTextContent('$45.502 player(s)');

    const money = screen.getByRole('figure', { name: 'Money by day' });
    const table = within(money).getByRole('table', { name: /Money by day/ });
    const rows = within(table).getAllByRole('row');
    // A header and one row per day.
    expect(rows).toHaveLength(31);
    expect(rows[1]).toHaveTextContent(`${addDays(today, -29)}$20.00$50.50$10.00$1.00`);
  });

  it('asks for 7 and 90 days, and refuses a backwards custom range before asking', async () => {
    const fetchMock = serve();
    const user = userEvent.setup();
    renderApp('/admin');
    await screen.findByLabelText('Key figures');
    const today = dayOf(new Date());

    await user.click(screen.getByRole('button', { name: 'LAST 7 DAYS' }));
    await waitFor(() =>
      expect(overviewCalls(fetchMock).at(-1)).toEqual({ from: addDays(today, -6), to: today }),
    );
    expect(screen.getByRole('button', { name: 'LAST 7 DAYS' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(screen.getByRole('button', { name: 'LAST 90 DAYS' }));
    await waitFor(() =>
      expect(overviewCalls(fetchMock).at(-1)).toEqual({ from: addDays(today, -89), to: today }),
    );

    await user.click(screen.getByRole('button', { name: 'CUSTOM' }));
    const custom = screen.getByRole('form', { name: 'Custom range' });
    const asked = overviewCalls(fetchMock).length;
    await user.clear(within(custom).getByLabelText('From'));
    await user.type(within(custom).getByLabelText('From'), '2026-03-10');
    await user.clear(within(custom).getByLabelText('To'));
    await user.type(within(custom).getByLabelText('To'), '2026-03-01');
    await user.click(within(custom).getByRole('button', { name: 'APPLY' }));
    expect(await within(custom).findByRole('alert')).toHaveTextContent(
      INSIGHTS_MESSAGES.rangeInvalid,
    );
    expect(overviewCalls(fetchMock)).toHaveLength(asked);

    await user.clear(within(custom).getByLabelText('To'));
    await user.type(within(custom).getByLabelText('To'), '2026-03-12');
    await user.click(within(custom).getByRole('button', { name: 'APPLY' }));
    await waitFor(() =>
      expect(overviewCalls(fetchMock).at(-1)).toEqual({ from: '2026-03-10', to: '2026-03-12' }),
    );
    expect(screen.getByRole('link', { name: 'PAYMENTS' })).toHaveAttribute(
      'href',
      '/api/admin/exports/payments.csv?from=2026-03-10&to=2026-03-12',
    );
  });
});
