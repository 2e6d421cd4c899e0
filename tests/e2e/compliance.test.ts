import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  approveLicence,
  creditPlayer,
  launchBrowser,
  PNG_1X1,
  startApp,
  type RunningApp,
} from './harness.ts';

/**
 * Responsible play and compliance (DESIGN §11), in the browser: where cash play is allowed, and
 * an approved ID before payouts. The app runs behind "one proxy", so a browser context that sends
 * X-Forwarded-For is a player at that address: universities' own addresses, inside the shipped
 * city database's ranges.
 */
const TENNESSEE = '160.36.0.1';
const NEW_YORK = '128.122.0.1';

let app: RunningApp;
let browser: Browser;
let counter = 0;

beforeAll(async () => {
  app = await startApp({
    TRUST_PROXY: 'true',
    KYC_REQUIRED_FOR_PAYOUT: 'true',
    PAYOUT_DAILY_LIMIT: '30',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A browser whose requests arrive from `address` (none: from this machine, a private one). */
function playerAt(address?: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: app.baseUrl,
    ...(address ? { extraHTTPHeaders: { 'X-Forwarded-For': address } } : {}),
  });
}

/** Fills the register tab, choosing `state`, and presses CREATE ACCOUNT. */
async function fillRegistration(page: Page, state: string): Promise<string> {
  counter += 1;
  const username = `geo_${process.pid % 10_000}_${counter}`;
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('geo-password');
  await page.getByLabel('Phone Number').fill('+1 555 010 4444');
  await page.getByLabel('State').selectOption({ label: state });
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  return username;
}

/** From the lobby, fills the Create Challenge dialog for $20 and presses CREATE CHALLENGE. */
async function tryToCreateChallenge(page: Page): Promise<void> {
  await page.goto('/');
  await page
    .getByRole('button', { name: /Create Challenge/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Create Challenge' });
  await dialog.getByLabel('Game', { exact: true }).fill('EA FC 26');
  await dialog.getByLabel('Amount ($)').fill('20');
  await dialog.getByLabel('Console').selectOption('PlayStation');
  await dialog.getByLabel('Gamer Tag').fill('Striker');
  await dialog.getByRole('button', { name: 'CREATE CHALLENGE' }).click();
}

describe('where cash play is allowed', () => {
  it('a declared excluded state is refused under its field; a permitted one registers', async () => {
    const context = await playerAt();
    const page = await context.newPage();
    await fillRegistration(page, 'Tennessee');
    const state = page.getByLabel('State');
    await page.getByText('Cash competitions are not available in Tennessee.').first().waitFor();
    await page.waitForFunction(
      () => document.querySelector('select[name="state"]')?.getAttribute('aria-invalid') === 'true',
    );
    await state.selectOption({ label: 'New York' });
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
    await page.waitForURL(`${app.baseUrl}/`);
    await context.close();
  });

  it('an address in an excluded state is refused whatever the player declares', async () => {
    const context = await playerAt(TENNESSEE);
    const page = await context.newPage();
    await fillRegistration(page, 'New York');
    // A toast's words are also copied into its live region for screen readers: the first is shown.
    await page.getByText('Registration failed', { exact: true }).first().waitFor();
    await page
      .getByText('403: Cash competitions are not available in Tennessee.')
      .first()
      .waitFor();
    await context.close();
  });

  it('a New York player sees the place of the sign-in, moves to Arizona, and can no longer stake', async () => {
    const context = await playerAt(NEW_YORK);
    const page = await context.newPage();
    const username = await fillRegistration(page, 'New York');
    await page.waitForURL(`${app.baseUrl}/`);
    await creditPlayer(app.baseUrl, username, '50');

    await page.goto('/profile');
    const devices = page.getByRole('region', { name: 'Devices' });
    await devices.getByText('New York, New York, US').waitFor();
    const location = page.getByRole('region', { name: 'Location' });
    await location.getByText('You play from New York.').waitFor();

    await location.getByLabel('State').selectOption({ label: 'Arizona' });
    await location.getByRole('button', { name: 'SAVE STATE' }).click();
    await page.getByText('STATE UPDATED', { exact: true }).first().waitFor();
    await location.getByText('You play from Arizona.').waitFor();
    await location
      .getByRole('status')
      .getByText(/Cash competitions are not available in Arizona\. .*you can still withdraw/)
      .waitFor();

    await tryToCreateChallenge(page);
    await page.getByText('Challenge not created', { exact: true }).first().waitFor();
    await page.getByText('Cash competitions are not available in Arizona.').first().waitFor();
    await context.close();
  });
});

describe('identity before money leaves', () => {
  it('a payout is refused until an admin approves the licence, then held within the daily limit', async () => {
    const context = await playerAt();
    const page = await context.newPage();
    const username = await fillRegistration(page, 'Ohio');
    await page.waitForURL(`${app.baseUrl}/`);
    await creditPlayer(app.baseUrl, username, '50');

    const ask = async (amount: string) => {
      await page.goto('/payouts');
      await page.getByRole('button', { name: 'Request Payout' }).click();
      const dialog = page.getByRole('dialog', { name: 'Request Payout' });
      await dialog.getByLabel('Amount ($)').fill(amount);
      await dialog.getByLabel('Coin').selectOption({ label: 'Other (describe below)' });
      await dialog.getByLabel('Payment Details').fill('BTC bc1qcompliancee2e0000000000000000');
      await dialog.getByRole('button', { name: 'SUBMIT REQUEST' }).click();
      return dialog;
    };

    const refused = await ask('20');
    const alert = refused.getByRole('alert');
    await alert
      .getByText(
        "Verify your identity before your first withdrawal: upload your driver's licence in your profile.",
      )
      .waitFor();
    await alert.getByRole('link', { name: "Upload your driver's licence" }).click();
    await page.waitForURL(`${app.baseUrl}/profile`);
    await page.getByRole('button', { name: "Upload Driver's License" }).click();
    const upload = page.getByRole('dialog', { name: "Upload Driver's License" });
    await upload
      .getByLabel("Driver's License")
      .setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await upload.getByRole('button', { name: 'UPLOAD LICENSE' }).click();
    await page.getByText('PENDING REVIEW').first().waitFor();

    await approveLicence(app.baseUrl, username);
    await ask('20');
    await page.getByText('PAYOUT REQUESTED').first().waitFor();

    // $30 in any 24 hours: $20 is out, $10 is left.
    const over = await ask('15');
    await over
      .getByText(
        'Payouts are limited to $30.00 in any 24 hours: you can withdraw up to $10.00 now.',
      )
      .first()
      .waitFor();
    await context.close();
  });
});

describe('limits a player sets', () => {
  it('a $50 daily limit refuses $60 saying what is left, takes $40, and a time-out stops creating', async () => {
    const context = await playerAt(NEW_YORK);
    const page = await context.newPage();
    await fillRegistration(page, 'New York');
    await page.waitForURL(`${app.baseUrl}/`);

    await page.getByRole('link', { name: 'Play responsibly' }).click();
    await page.waitForURL(`${app.baseUrl}/play-responsibly`);
    await page.getByRole('link', { name: 'Call 1-800-GAMBLER' }).waitFor();
    const limits = page.getByRole('region', { name: 'Deposit limits' });
    await limits.getByLabel('Daily limit ($)').fill('50');
    await limits.getByRole('button', { name: 'SAVE LIMITS' }).click();
    await page.getByText('LIMITS SAVED', { exact: true }).first().waitFor();
    await limits.getByText('$50.00 left').waitFor();

    const startDeposit = async (amount: string) => {
      await page.goto('/profile');
      await page.getByRole('button', { name: 'DEPOSIT FUNDS' }).click();
      const dialog = page.getByRole('dialog', { name: 'Deposit Funds' });
      await dialog.getByLabel('Amount ($)').fill(amount);
      await dialog.getByRole('button', { name: 'CONTINUE' }).click();
      return dialog;
    };
    const refused = await startDeposit('60');
    await refused
      .getByText('This deposit is over your daily deposit limit: $50.00 left today.')
      .waitFor();
    const accepted = await startDeposit('40');
    await accepted.getByRole('button', { name: 'Credit Card' }).click();
    await accepted.getByLabel('Card Number').fill('4242 4242 4242 4242');
    await accepted.getByLabel('Expiry (MM/YY)').fill('12/34');
    await accepted.getByLabel('CVC').fill('123');
    await accepted.getByRole('button', { name: 'PAY $40.00' }).click();
    await accepted.getByText('DEPOSIT SUCCESSFUL').waitFor();

    await page.goto('/play-responsibly');
    await page.getByRole('region', { name: 'Deposit limits' }).getByText('$10.00 left').waitFor();
    await page.getByRole('button', { name: 'TAKE A TIME-OUT' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Take a time-out for 24 hours?' });
    await confirm.getByText(/Nobody, not you and not our support, can end it early/).waitFor();
    await confirm.getByRole('button', { name: 'YES, START MY TIME-OUT' }).click();
    await page.getByText('TIME-OUT STARTED', { exact: true }).first().waitFor();
    const banner = page.getByRole('region', { name: 'Time-out' });
    const pause = await banner
      .getByText(/^You are taking a time-out until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
      .textContent();

    await tryToCreateChallenge(page);
    // The refusal, in its toast, names the same end as the banner.
    const toast = page.locator('li', { hasText: 'Challenge not created' }).first();
    await toast.getByText(pause ?? 'no banner text').waitFor();
    await context.close();
  });
});
