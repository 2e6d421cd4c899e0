import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  callApi,
  creditPlayer,
  launchBrowser,
  registerPlayer,
  signIn,
  startApp,
  type RunningApp,
  expectTopBarBalance,
  PNG_1X1,
  topBarBalance,
} from './harness.ts';

/**
 * Fair play (issue 16) as the players and the operator live it, in three browsers: a false win is
 * reported at once, its winnings cannot be withdrawn, the honest player disputes with a picture,
 * the admin sees both sides and awards the honest player, and both balances change live.
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

describe('a false report, undone', () => {
  it('the winnings wait, the honest player disputes with a picture, the admin awards them', async () => {
    const cheat = await registerPlayer(browser, app.baseUrl);
    const honest = await registerPlayer(browser, app.baseUrl, { width: 390, height: 844 });
    const admin = await signIn(browser, app.baseUrl, ADMIN);
    await creditPlayer(app.baseUrl, cheat.username, '60');
    await creditPlayer(app.baseUrl, honest.username, '50');
    await expectTopBarBalance(cheat.page, '$60.00');

    const { id } = await callApi<{ id: number }>(cheat.context, 'POST', '/api/challenges', {
      game: 'EA FC 26',
      amount: 50,
      gamerTag: 'Striker',
      phoneNumber: '+1 555 010 9999',
      console: 'PlayStation',
    });
    await callApi(honest.context, 'POST', `/api/challenges/${id}/accept`);

    // The cheat reports a 5–0 win at once, through the SPEC's dialog.
    await cheat.page.goto(`/challenges/${id}`);
    await cheat.page.getByRole('button', { name: 'SUBMIT RESULTS' }).click();
    const submit = cheat.page.getByRole('dialog', { name: 'Submit Results' });
    await submit.getByLabel('Creator Score').fill('5');
    await submit.getByLabel('Acceptor Score').fill('0');
    await submit.getByLabel('Screenshot URL').fill('https://i.imgur.com/not-this-match.png');
    await submit.getByRole('button', { name: 'SEND RESULTS' }).click();
    const modal = cheat.page.getByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' });
    await modal.getByText('YOU WON').waitFor();
    await modal.getByText(/\$95\.00 held for review until/).waitFor();
    await modal.getByRole('button', { name: 'GOT IT' }).click();
    await expectTopBarBalance(cheat.page, '$105.00');
    await expectTopBarBalance(cheat.page, '$95.00 under review');

    // …and tries to take the whole balance the same minute: only $10 is available.
    await cheat.page.goto('/payouts');
    await cheat.page.getByText('$95.00 more is held for review').waitFor();
    await cheat.page.getByRole('button', { name: /Request Payout/i }).click();
    const payout = cheat.page.getByRole('dialog', { name: 'Request Payout' });
    await payout.getByLabel(/Amount/).fill('105');
    await payout.getByLabel('Coin').selectOption({ label: 'Other (describe below)' });
    await payout.getByLabel(/Payment Details/i).fill('BTC bc1qcheataddress0000000000000000000');
    await payout.getByLabel(/Phone/i).fill('+1 555 010 9999');
    await payout.getByRole('button', { name: /REQUEST PAYOUT|SUBMIT/i }).click();
    await payout.getByText('Insufficient balance').first().waitFor();
    // The server refuses it too, whatever a client sends.
    const forced = await cheat.context.request.post('/api/payouts', {
      data: {
        amount: 105,
        paymentMethod: 'crypto',
        paymentDetails: 'BTC bc1qcheataddress0000000000000000000',
        phoneNumber: '+1 555 010 9999',
      },
    });
    expect(forced.status()).toBe(400);
    expect(await forced.json()).toMatchObject({ message: 'Insufficient balance' });

    // The honest player is told by the bell, opens the match and disputes it.
    await honest.page.getByRole('button', { name: /^Notifications, \d+ unread/ }).click();
    await honest.page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('link', { name: /a result was reported/ })
      .click();
    await honest.page.waitForURL(`${app.baseUrl}/challenges/${id}`);
    await honest.page.getByText('CONFIRM OR DISPUTE THIS RESULT').waitFor();
    await honest.page.getByRole('button', { name: 'DISPUTE RESULT' }).click();
    const dispute = honest.page.getByRole('dialog', { name: 'Dispute Result' });
    await dispute
      .getByLabel('What went wrong?')
      .fill('I won 3–1; that screenshot is another match');
    await dispute.getByRole('button', { name: 'SEND DISPUTE' }).click();
    await honest.page.getByText('UNDER ADMIN REVIEW').waitFor();

    await honest.page.getByRole('button', { name: 'ADD EVIDENCE' }).click();
    const evidence = honest.page.getByRole('dialog', { name: 'Add Evidence' });
    await evidence.getByLabel('Statement').fill('The final score screen of our match.');
    await evidence
      .getByLabel('Picture or video (optional)')
      .setInputFiles({ name: 'final-score.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await evidence.getByRole('button', { name: 'SEND EVIDENCE' }).click();
    await honest.page
      .getByRole('region', { name: `Evidence from ${honest.username}` })
      .getByRole('link', { name: /final-score\.png/ })
      .waitFor();

    // The operator sees the held winnings and both sides, and awards the honest player.
    await admin.page.goto('/admin');
    await admin.page.getByRole('tab', { name: 'DISPUTES' }).click();
    const row = admin.page.getByRole('article', { name: 'EA FC 26' });
    await row.getByText('WINNINGS HELD FOR REVIEW').waitFor();
    await row.getByRole('button', { name: 'RESOLVE' }).click();
    const decision = admin.page.getByRole('dialog', { name: 'Resolve Dispute' });
    await decision
      .getByRole('region', { name: `Evidence from ${honest.username}` })
      .getByText('The final score screen of our match.')
      .waitFor();
    await decision.getByRole('radio', { name: new RegExp(`Award to ${honest.username}`) }).check();
    await decision.getByLabel('Note').fill('The screenshot belongs to another match');
    await decision.getByRole('button', { name: 'CONFIRM DECISION' }).click();
    await admin.page.getByText('Dispute resolved').first().waitFor();

    // Both top bars change without a reload: the honest player has the winnings, the cheat's
    // held credit is gone.
    await expectTopBarBalance(honest.page, '$95.00');
    await expectTopBarBalance(cheat.page, '$10.00');
    expect(await topBarBalance(cheat.page).innerText()).not.toContain('under review');
    expect(await topBarBalance(honest.page).innerText()).not.toContain('under review');

    for (const context of [cheat.context, honest.context, admin.context]) await context.close();
  });
});
