import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import {
  ADMIN,
  callApi,
  launchBrowser,
  registerPlayer,
  type RunningApp,
  screenshot,
  signIn,
  startApp,
} from './harness.ts';

/**
 * Operator insights in Chromium (issue 22): after real card deposits and two settled matches the
 * admin's OVERVIEW shows the right totals, a CSV export downloads and reads back, and a player
 * found on the RISK tab opens on their own page.
 */

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Pictures of the viewport at both widths, with `subject` scrolled into view. */

/** A card deposit through the sandbox, as the deposit dialog makes it. */
async function deposit(context: BrowserContext, amount: number): Promise<void> {
  const intent = await callApi<{ clientSecret: string; paymentIntentId: string }>(
    context,
    'POST',
    '/api/create-payment-intent',
    { amount },
  );
  await callApi(context, 'POST', '/api/sandbox/card/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: SANDBOX_TEST_CARDS.success,
  });
  await callApi(context, 'POST', '/api/confirm-payment', {
    paymentIntentId: intent.paymentIntentId,
    amount,
  });
}

/** A match `creator` wins against `acceptor`, confirmed by the loser: settled and paid. */
async function playAndWin(creator: BrowserContext, acceptor: BrowserContext, amount: number) {
  const { id } = await callApi<{ id: number }>(creator, 'POST', '/api/challenges', {
    game: 'Street Fighter 6',
    amount,
    gamerTag: 'Ryu',
    phoneNumber: '5550109999',
    console: 'PC',
  });
  await callApi(acceptor, 'POST', `/api/challenges/${id}/accept`);
  await callApi(creator, 'POST', `/api/challenges/${id}/submit`, {
    creatorScore: 3,
    acceptorScore: 1,
    screenshot: 'https://example.com/e2e-result.png',
  });
  await callApi(acceptor, 'POST', `/api/challenges/${id}/confirm`);
}

describe('operator insights', () => {
  it('shows the totals, exports a CSV that reads back, and opens a player from RISK', async () => {
    // The day the money moves, taken before it does: the run may cross midnight (UTC).
    const today = new Date().toISOString().slice(0, 10);
    const winner = await registerPlayer(browser, app.baseUrl);
    const loser = await registerPlayer(browser, app.baseUrl);
    await deposit(winner.context, 50);
    await deposit(loser.context, 30);
    await playAndWin(winner.context, loser.context, 10);
    await playAndWin(winner.context, loser.context, 5);

    const admin = await signIn(browser, app.baseUrl, ADMIN);
    const page = admin.page;
    await page.goto('/admin');
    // OVERVIEW opens first, on the last 30 days.
    const figures = page.getByRole('definition');
    const tile = (label: string) =>
      page
        .getByLabel('Key figures')
        .locator('div')
        .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) });
    await tile('Deposits').getByText('$80.00').waitFor();
    const expected: Array<[string, string]> = [
      ['Stakes volume', '$30.00'],
      // 5% of each prize: $1.00 of $20, $0.50 of $10.
      ['Fees earned', '$1.50'],
      ['Deposits', '$80.00'],
      ['Payouts', '$0.00'],
      ['Net house position', '$1.50'],
      ['Active players', '2'],
      // The two players and the operator's own account, made at start-up.
      ['Registrations', '3'],
      ['Completed challenges', '2'],
      ['Dispute rate', '0.0%'],
      // What players owe after chargebacks, today: nobody's card payment was disputed here.
      ['Debts owed today', '$0.000 player(s)'],
    ];
    for (const [label, value] of expected) {
      expect((await tile(label).locator('dd').textContent())?.trim()).toBe(value);
    }
    expect(await figures.count()).toBe(10);
    // The charts' figures as a table: today's row holds the day's deposits.
    const money = page.getByRole('figure', { name: 'Money by day' });
    await money.getByText('Table view: Money by day').click();
    const todayRow = money.getByRole('row', { name: new RegExp(`^${today}`) });
    await todayRow.getByRole('cell', { name: '$80.00' }).waitFor();
    await screenshot(page, 'insights-overview', page.getByLabel('Key figures'));

    // The payments of the range download as CSV, and read back.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'PAYMENTS' }).click(),
    ]);
    const path = await download.path();
    const rows = parse(readFileSync(path, 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(rows.map((row) => [row.username, row.status, row.credited]).sort()).toEqual(
      [
        [winner.username, 'credited', '50.00'],
        [loser.username, 'credited', '30.00'],
      ].sort(),
    );
    expect(download.suggestedFilename()).toMatch(/^skillstake-payments-\d{4}-\d{2}-\d{2}-to-/);

    // RISK: every account here signed in from one address, each on its own browser: a shared
    // network, shown only. The winner's page opens from it.
    await page.getByRole('tab', { name: 'RISK' }).click();
    const shared = page.getByRole('region', { name: 'SHARED NETWORK', exact: true });
    await shared.getByRole('link', { name: winner.username }).first().waitFor();
    await screenshot(page, 'insights-risk', shared);
    await shared.getByRole('link', { name: winner.username }).first().click();
    await page.getByRole('heading', { name: winner.username }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/players\/\d+$/);
    const sessions = page.getByRole('region', { name: 'SESSIONS', exact: true });
    await sessions.getByText('127.0.0.1').first().waitFor();
    await page
      .getByRole('region', { name: 'PAYMENTS', exact: true })
      .getByText('$50.00')
      .first()
      .waitFor();

    // A note, kept on the page.
    await page.getByLabel('New note').fill('Shares an address with the loser of two matches');
    await page.getByRole('button', { name: 'SAVE NOTE' }).click();
    await page.getByText('Shares an address with the loser of two matches').first().waitFor();
    await screenshot(page, 'insights-player', page.getByRole('heading', { name: winner.username }));

    await winner.context.close();
    await loser.context.close();
    await admin.context.close();
  });
});
