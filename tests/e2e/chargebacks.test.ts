import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_REFUND_MESSAGES } from '#shared/contracts/card-refunds.ts';
import { CHARGEBACK_MESSAGES } from '#shared/contracts/chargebacks.ts';
import { SANDBOX_TEST_CARDS } from '#shared/contracts/payments.ts';
import {
  ADMIN,
  adminCall,
  callApi,
  creditPlayer,
  launchBrowser,
  registerPlayer,
  type RunningApp,
  screenshot,
  signIn,
  startApp,
} from './harness.ts';

/**
 * A disputed card payment in the browser (docs/chargebacks.md): the player paid $30 by card and
 * staked $20 in a match an opponent accepted; the bank disputes the payment (the sandbox's admin route standing in for Stripe);
 * the player sees the lock and the $20 they owe on /profile and /payouts, and a payout is refused
 * with the reason; the operator finds the dispute on the CHARGEBACKS tab, with the evidence the
 * worker staged, and submits it.
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

describe('card money', () => {
  it('locks the player’s money with the debt shown, and the operator submits the evidence', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    const intent = await callApi<{ clientSecret: string; paymentIntentId: string }>(
      player.context,
      'POST',
      '/api/create-payment-intent',
      { amount: 30 },
    );
    await callApi(player.context, 'POST', '/api/sandbox/card/confirm', {
      clientSecret: intent.clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.success,
    });
    const match = await callApi<{ id: number }>(player.context, 'POST', '/api/challenges', {
      game: 'Street Fighter 6',
      amount: 20,
      gamerTag: 'Ryu',
      phoneNumber: '+1 555 010 3000',
      console: 'PlayStation',
    });
    // An opponent accepts: the stake stays in escrow through the dispute, so the wallet lacks it.
    const opponent = await registerPlayer(browser, app.baseUrl);
    await creditPlayer(app.baseUrl, opponent.username, '20');
    await callApi(opponent.context, 'POST', `/api/challenges/${match.id}/accept`);
    const { id: disputeId } = await adminCall<{ id: string }>(
      app.baseUrl,
      'POST',
      '/api/sandbox/card/disputes',
      { paymentIntentId: intent.paymentIntentId },
    );

    const { page } = player;
    for (const path of ['/profile', '/payouts']) {
      await page.goto(path);
      const banner = page.getByRole('region', { name: 'Money locked' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain(
        "Your account's money is locked because a card payment of $30.00 was disputed",
      );
      expect(await banner.textContent()).toContain('You owe $20.00.');
    }
    await screenshot(page, 'chargeback-player-payouts');
    const refused = await player.context.request.post('/api/payouts', {
      data: {
        amount: 5,
        paymentMethod: 'crypto',
        paymentDetails: 'BTC bc1qexampleaddress',
        phoneNumber: '+1 555 010 3000',
      },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('MONEY_LOCKED');

    const operator = await signIn(browser, app.baseUrl, ADMIN);
    await operator.page.goto('/admin');
    await operator.page.getByRole('tab', { name: 'CHARGEBACKS' }).click();
    const row = operator.page.getByRole('article', {
      name: `$30.00 disputed by ${player.username}’s bank`,
    });
    await row.waitFor();
    // The worker stages the evidence as soon as the dispute is recorded; the tab shows it on
    // its next read.
    const evidence = row.getByText('The evidence the bank reads');
    for (let attempt = 0; !(await evidence.isVisible()); attempt += 1) {
      if (attempt === 50) throw new Error('the evidence was never staged');
      await operator.page.reload();
      await operator.page.getByRole('tab', { name: 'CHARGEBACKS' }).click();
      await row.waitFor();
    }
    await evidence.click();
    expect(await row.textContent()).toContain(player.username);
    await screenshot(operator.page, 'chargeback-admin-tab');
    await row.getByRole('button', { name: 'SUBMIT' }).click();
    await operator.page.getByText(CHARGEBACK_MESSAGES.submitted).first().waitFor();
    await row.getByRole('button', { name: 'SUBMIT' }).waitFor({ state: 'detached' });
    expect(await row.textContent()).toContain('Submitted');

    const listed = await adminCall<Array<{ id: string; evidenceSubmittedAt: string | null }>>(
      app.baseUrl,
      'GET',
      '/api/admin/chargebacks',
    );
    expect(listed.find((dispute) => dispute.id === disputeId)?.evidenceSubmittedAt).not.toBeNull();
    await operator.context.close();
    await opponent.context.close();
    await player.context.close();
  });

  it('goes back to the card from REFUND TO CARD on /payouts, by keyboard', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    const intent = await callApi<{ clientSecret: string }>(
      player.context,
      'POST',
      '/api/create-payment-intent',
      { amount: 25 },
    );
    await callApi(player.context, 'POST', '/api/sandbox/card/confirm', {
      clientSecret: intent.clientSecret,
      cardNumber: SANDBOX_TEST_CARDS.success,
    });
    const { page } = player;
    await page.goto('/payouts');
    const open = page.getByRole('button', { name: 'REFUND TO CARD' });
    await open.waitFor();
    expect(
      await page.getByText('$25.00 came by card and can go back to that card now.').count(),
    ).toBe(1);
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Refund to Card' });
    await dialog.waitFor();
    const amount = dialog.getByLabel('Amount ($)');
    expect(await amount.inputValue()).toBe('25.00');
    await amount.fill('10');
    await screenshot(page, 'card-refund-dialog', dialog);
    await amount.press('Enter');
    await page.getByText(CARD_REFUND_MESSAGES.requested('$10.00')).first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    const refunds = page.getByRole('region', { name: 'Card Refunds' });
    // The worker makes the refund at once, and its notification brings the new status.
    await refunds.getByText('Refunded').waitFor();
    expect(
      await page.getByText('$15.00 came by card and can go back to that card now.').count(),
    ).toBe(1);
    await screenshot(page, 'card-refund-payouts', refunds);
    await player.context.close();
  });
});
