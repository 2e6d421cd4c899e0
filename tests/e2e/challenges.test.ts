import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  creditPlayer,
  launchBrowser,
  registerPlayer,
  startApp,
  type RunningApp,
  expectTopBarBalance,
  topBarBalance,
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

describe('a challenge between two players in two browsers', () => {
  it('one creates, the other sees it appear and accepts, one submits, both balances change live', async () => {
    const creator = await registerPlayer(browser, app.baseUrl);
    const acceptor = await registerPlayer(browser, app.baseUrl, { width: 390, height: 844 });
    await creditPlayer(app.baseUrl, creator.username, '50');
    await creditPlayer(app.baseUrl, acceptor.username, '30');
    // Credits arrive on the account socket: no reload needed.
    await expectTopBarBalance(creator.page, '$50.00');
    await expectTopBarBalance(acceptor.page, '$30.00');

    // The acceptor watches the Available tab while the creator posts a challenge.
    await acceptor.page.getByText('NO AVAILABLE CHALLENGES').waitFor();
    await creator.page
      .getByRole('button', { name: /Create Challenge/ })
      .first()
      .click();
    const dialog = creator.page.getByRole('dialog');
    await dialog.getByLabel('Game', { exact: true }).fill('Mortal Kombat 1');
    await dialog.getByLabel('Amount ($)').fill('20');
    await dialog.getByLabel('Console').selectOption('PlayStation');
    await dialog.getByLabel('Gamer Tag').fill('Scorpion');
    await dialog.getByRole('button', { name: 'CREATE CHALLENGE' }).click();
    await creator.page.getByText('Your challenge is now live.').first().waitFor();
    await expectTopBarBalance(creator.page, '$30.00');

    await acceptor.page.getByText('Mortal Kombat 1').waitFor({ timeout: 10_000 });
    await acceptor.page.getByRole('button', { name: 'ACCEPT CHALLENGE' }).click();
    // The confirmation states the money before it moves.
    const confirm = acceptor.page.getByRole('alertdialog', { name: 'Accept this challenge?' });
    await confirm.getByText('You stake $20.00. Win: $38.00 after the 5% fee.').waitFor();
    await confirm.getByRole('button', { name: 'YES, STAKE $20.00' }).click();
    await acceptor.page.getByText('Get ready to compete!').first().waitFor();
    await expectTopBarBalance(acceptor.page, '$10.00');

    // The creator's Active tab fills without a reload; the creator reports a win.
    await creator.page.getByRole('tab', { name: /Active/ }).click();
    await creator.page.getByRole('button', { name: 'SUBMIT SCORES' }).click();
    const submit = creator.page.getByRole('dialog');
    await submit.getByLabel('Creator Score').fill('3');
    await submit.getByLabel('Acceptor Score').fill('1');
    await submit.getByLabel('Screenshot URL').fill('https://i.imgur.com/mk1-win.png');
    await submit.getByRole('button', { name: 'SEND RESULTS' }).click();

    const modal = creator.page.getByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' });
    await modal.waitFor();
    await modal.getByText('YOU WON').waitFor();
    await modal.getByText('$40.00').waitFor();
    await modal.getByText('-$2.00').waitFor();
    await modal.getByText('$68.00').waitFor();
    await expectTopBarBalance(creator.page, '$68.00');
    // The loser's balance does not change; the acceptor's page learns of the result live.
    await acceptor.page.getByRole('tab', { name: /Completed/ }).click();
    // Exact: the lobby's banner says "Winner takes the pot", which a substring match finds at once.
    await acceptor.page.getByText('WINNER', { exact: true }).first().waitFor({ timeout: 10_000 });
    expect(await topBarBalance(acceptor.page).innerText()).toContain('$10.00');

    await creator.context.close();
    await acceptor.context.close();
  });
});
