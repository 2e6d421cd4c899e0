import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  launchBrowser,
  registerPlayer,
  signIn,
  startApp,
  type RunningApp,
  expectTopBarBalance,
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

describe('the operator and a player in two browsers', () => {
  it('a balance change reaches the player live; a payout is requested, completed and shown', async () => {
    const player = await registerPlayer(browser, app.baseUrl, { width: 390, height: 844 });
    const admin = await signIn(browser, app.baseUrl, ADMIN);
    await expectTopBarBalance(player.page, '$0.00');

    // USERS: the operator credits the player inline, with a reason for the audit log.
    await admin.page.goto('/admin');
    await admin.page.getByText('LEDGER OK').waitFor();
    await admin.page.getByRole('tab', { name: 'USERS' }).click();
    const userRow = admin.page.getByRole('article', { name: player.username, exact: true });
    await userRow.getByRole('button', { name: 'MODIFY BALANCE' }).click();
    const form = userRow.getByRole('form', { name: `Modify balance of ${player.username}` });
    await form.getByLabel('Amount ($)').fill('40');
    await form.getByLabel('Reason (optional)').fill('Promotional credit');
    await form.getByRole('button', { name: 'UPDATE' }).click();
    await admin.page.getByText(`${player.username}'s balance is now $40.00.`).first().waitFor();
    await userRow.getByText('$40.00').waitFor();

    // The player's top bar follows over the account socket, without a reload.
    await expectTopBarBalance(player.page, '$40.00');
    await player.page.getByText('Your new balance is $40.00').first().waitFor();
    expect(new URL(player.page.url()).pathname).toBe('/');

    // The player asks for $15 on /payouts; the amount moves to a hold at once.
    await player.page.getByRole('button', { name: /PROFILE/ }).click();
    await player.page.getByRole('menuitem', { name: 'PAYOUTS' }).click();
    await player.page.getByText('NO PAYOUT RECORDS FOUND').waitFor();
    await player.page.getByRole('button', { name: 'Request Payout' }).click();
    const request = player.page.getByRole('dialog', { name: 'Request Payout' });
    await request.getByLabel('Amount ($)').fill('15');
    // "Other": the SPEC's free-text details, which an operator pays by hand (DESIGN §15).
    await request.getByLabel('Coin').selectOption({ label: 'Other (describe below)' });
    await request.getByLabel('Payment Details').fill('BTC bc1qe2eplayerwalletaddress');
    await request.getByRole('button', { name: 'SUBMIT REQUEST' }).click();
    await player.page.getByText('PAYOUT REQUESTED').first().waitFor();
    const history = player.page.getByRole('list', { name: 'Payout history' });
    await history.getByText('PROCESSING', { exact: true }).waitFor();
    await expectTopBarBalance(player.page, '$25.00');

    // PAYOUTS: the request waits in the operator's queue; the operator marks it sent.
    await admin.page.getByRole('tab', { name: 'PAYOUTS' }).click();
    const payoutRow = admin.page.getByRole('article', { name: player.username, exact: true });
    await payoutRow.getByText('BTC bc1qe2eplayerwalletaddress').waitFor();
    await payoutRow.getByText('$15.00').waitFor();
    await payoutRow.getByRole('button', { name: 'COMPLETE' }).click();
    const complete = admin.page.getByRole('dialog', { name: 'Complete Payout' });
    await complete.getByLabel('Transaction ID or note (optional)').fill('tx-e2e-0001');
    await complete.getByRole('button', { name: 'MARK AS SENT' }).click();
    await admin.page.getByText(`$15.00 to ${player.username} is marked as sent.`).first().waitFor();
    await admin.page.getByText('NO PAYOUTS WAITING').waitFor();

    // The player's history shows the payout COMPLETED (no realtime event carries payout
    // decisions, so the page is reloaded); the balance is unchanged by the completion.
    await player.page.reload();
    await history.getByText('COMPLETED', { exact: true }).waitFor();
    expect(await history.getByText('PROCESSING', { exact: true }).count()).toBe(0);
    await expectTopBarBalance(player.page, '$25.00');

    // Both decisions are in the audit log, and the ledger still balances.
    await admin.page.getByRole('tab', { name: 'AUDIT LOG' }).click();
    const audit = admin.page.getByRole('list', { name: 'Audit log' });
    await audit.getByRole('article', { name: 'Payout completed' }).waitFor();
    await audit
      .getByRole('article', { name: 'Balance adjusted' })
      .getByText('Promotional credit')
      .waitFor();
    await admin.page.getByRole('button', { name: 'RECHECK' }).click();
    await admin.page.getByText('LEDGER OK').waitFor();

    await player.context.close();
    await admin.context.close();
  });
});
