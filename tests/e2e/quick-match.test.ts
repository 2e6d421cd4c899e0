import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditPlayer,
  expectTopBarBalance,
  launchBrowser,
  registerPlayer,
  startApp,
  topBarBalance,
  type RunningApp,
} from './harness.ts';

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

/** From the lobby: QUICK MATCH, the terms, FIND A MATCH. */
async function quickMatch(page: Page, game: string, gamerTag: string): Promise<void> {
  await page.getByRole('button', { name: 'QUICK MATCH' }).click();
  const dialog = page.getByRole('dialog', { name: 'Quick Match' });
  await dialog.getByLabel('Game', { exact: true }).fill(game);
  await dialog.getByLabel('Amount ($)').fill('20');
  await dialog.getByLabel('Console').selectOption('Xbox');
  await dialog.getByLabel('Gamer Tag').fill(gamerTag);
  await dialog.getByRole('button', { name: 'FIND A MATCH' }).click();
}

describe('quick match between two browsers', () => {
  it('the first player waits, the second meets them, and they play it to the end', async () => {
    const first = await registerPlayer(browser, app.baseUrl);
    const second = await registerPlayer(browser, app.baseUrl, { width: 390, height: 844 });
    await creditPlayer(app.baseUrl, first.username, '50');
    await creditPlayer(app.baseUrl, second.username, '50');
    await expectTopBarBalance(first.page, '$50.00');
    await expectTopBarBalance(second.page, '$50.00');

    // Nobody waits on these terms: the first player's challenge opens and waits.
    await quickMatch(first.page, 'Halo Infinite', 'MasterChief');
    await first.page.getByText('Waiting for an opponent').first().waitFor();
    await first.page.waitForURL(/\/challenges\/\d+$/);
    // The challenge page's notice, written in capitals; a search ignoring case also found the
    // toast above (its title and what it announces) whenever that was still on screen.
    await first.page.getByText('WAITING FOR AN OPPONENT', { exact: true }).waitFor();
    await expectTopBarBalance(first.page, '$30.00');

    // The second asks on the same terms (another case of the name) and meets the first.
    await quickMatch(second.page, 'halo infinite', 'Arbiter');
    await second.page.getByText(`You face ${first.username} for $20.00.`).first().waitFor();
    await second.page.waitForURL(first.page.url());
    await second.page.getByText('MATCH IN PROGRESS').waitFor();
    await expectTopBarBalance(second.page, '$30.00');
    // The first player's page turns to the match without a reload.
    await first.page.getByText('MATCH IN PROGRESS').waitFor({ timeout: 10_000 });

    // The first reports a win; the second confirms it, and the winner is paid at once.
    await first.page.getByRole('button', { name: 'SUBMIT RESULTS' }).click();
    const submit = first.page.getByRole('dialog');
    await submit.getByLabel('Creator Score').fill('5');
    await submit.getByLabel('Acceptor Score').fill('2');
    await submit.getByLabel('Screenshot URL').fill('https://i.imgur.com/halo-win.png');
    await submit.getByRole('button', { name: 'SEND RESULTS' }).click();
    const modal = first.page.getByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' });
    await modal.getByText('YOU WON').waitFor();
    await modal.getByRole('button', { name: 'GOT IT' }).click();

    await second.page.getByText('CONFIRM OR DISPUTE THIS RESULT').waitFor({ timeout: 10_000 });
    await second.page.getByRole('button', { name: 'CONFIRM RESULT' }).click();
    const confirm = second.page.getByRole('alertdialog', { name: 'Confirm this result?' });
    await confirm.getByText(/^You lost: your \$20\.00 stake goes to /).waitFor();
    await confirm.getByRole('button', { name: 'YES, CONFIRM IT' }).click();
    // $30 + the $40 pot less the 5% fee ($2), released from review by the confirmation.
    await expectTopBarBalance(first.page, '$68.00');
    await expect
      .poll(() => topBarBalance(first.page).innerText(), { timeout: 10_000 })
      .not.toContain('under review');
    await expectTopBarBalance(second.page, '$30.00');

    await first.context.close();
    await second.context.close();
  });
});
