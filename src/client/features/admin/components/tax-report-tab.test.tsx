import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { TaxReport, TaxReportRow } from '#shared/contracts/tax-report.ts';
import { OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { taxYearsUpTo } from './tax-report-tab.tsx';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const THIS_YEAR = new Date().getUTCFullYear();

function row(overrides: Partial<TaxReportRow> = {}): TaxReportRow {
  return {
    userId: 7,
    username: 'high_roller',
    email: 'roller@example.com',
    accountClosed: false,
    prizes: 3,
    prizesCredited: 6650,
    stakes: 3500,
    netWinnings: 3150,
    ...overrides,
  };
}

function reportOf(year: number, players: TaxReportRow[]): TaxReport {
  return {
    year,
    threshold: 2000,
    from: `${year}-01-01T00:00:00.000Z`,
    to: `${year + 1}-01-01T00:00:00.000Z`,
    players,
  };
}

function serve(playersOf: (year: number) => TaxReportRow[]) {
  return stubFetch((request) => {
    const { path, query } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (path === '/api/admin/tax-report') {
      const year = Number(query.year);
      return jsonResponse(200, reportOf(year, playersOf(year)));
    }
    if (path === '/api/admin/ledger-health') {
      return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
    }
    if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
    return jsonResponse(200, []);
  });
}

async function openTaxReport() {
  const user = userEvent.setup();
  renderApp('/admin');
  await user.click(await screen.findByRole('tab', { name: 'TAX REPORT' }));
  return user;
}

describe('admin TAX REPORT tab', () => {
  it("shows this year's players at the threshold in a table, with the CSV of the same year", async () => {
    const fetchMock = serve(() => [
      row(),
      row({
        userId: 8,
        username: 'deleted_user_8',
        email: null,
        accountClosed: true,
        prizes: 1,
        prizesCredited: 4222.22,
        stakes: 2222.22,
        netWinnings: 2000,
      }),
    ]);
    await openTaxReport();

    const table = await screen.findByRole('table', {
      name: `Players with net winnings of $2,000.00 or more in ${THIS_YEAR}`,
    });
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Player', 'E-mail', 'Prizes', 'Credited', 'Stakes', 'Net winnings']);
    expect(rows).toHaveLength(2);
    const roller = within(table)
      .getByRole('rowheader', { name: /high_roller/ })
      .closest('tr')!;
    expect(
      within(roller)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['roller@example.com', '3', '$6,650.00', '$3,500.00', '$3,150.00']);
    const closed = within(table)
      .getByRole('rowheader', { name: /deleted_user_8/ })
      .closest('tr')!;
    expect(within(closed).getByText('Account closed')).toBeInTheDocument();
    expect(closed).toHaveTextContent('Not provided');
    expect(closed).toHaveTextContent('$2,000.00');
    // The wide table scrolls in a region the keyboard reaches.
    expect(screen.getByRole('region', { name: /Players with net winnings/ })).toHaveAttribute(
      'tabindex',
      '0',
    );

    expect(screen.getByRole('link', { name: 'DOWNLOAD CSV' })).toHaveAttribute(
      'href',
      `/api/admin/tax-report.csv?year=${THIS_YEAR}`,
    );
    expect(screen.getByRole('combobox', { name: 'Tax year' })).toHaveValue(String(THIS_YEAR));
    expect(
      fetchMock.mock.calls.some(([url]) =>
        String(url).endsWith(`/api/admin/tax-report?year=${THIS_YEAR}`),
      ),
    ).toBe(true);
  });

  it('reads another year when it is chosen, and the link follows it', async () => {
    const lastYear = THIS_YEAR - 1;
    serve((year) => (year === lastYear ? [row({ username: 'last_years_champ' })] : []));
    const user = await openTaxReport();
    expect(await screen.findByText('NO PLAYERS AT THE THRESHOLD')).toBeInTheDocument();
    expect(
      screen.getByText(`No player's net winnings in ${THIS_YEAR} reached $2,000.00.`),
    ).toBeInTheDocument();

    const select = screen.getByRole('combobox', { name: 'Tax year' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(taxYearsUpTo(THIS_YEAR).map(String));
    await user.selectOptions(select, String(lastYear));

    expect(await screen.findByRole('rowheader', { name: /last_years_champ/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'DOWNLOAD CSV' })).toHaveAttribute(
      'href',
      `/api/admin/tax-report.csv?year=${lastYear}`,
    );
  });

  it('says so when the report cannot be loaded', async () => {
    stubFetch((request) => {
      const { path } = parseRequestUrl(request.url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/tax-report') {
        return jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong' });
      }
      if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
      if (path === '/api/admin/ledger-health') {
        return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
      }
      return jsonResponse(200, []);
    });
    await openTaxReport();
    await waitFor(() =>
      expect(screen.getByText('COULD NOT LOAD THE TAX REPORT')).toBeInTheDocument(),
    );
  });
});

describe('taxYearsUpTo', () => {
  it('offers this year and the six before it, newest first', () => {
    expect(taxYearsUpTo(2030)).toEqual([2030, 2029, 2028, 2027, 2026, 2025, 2024]);
  });
});
