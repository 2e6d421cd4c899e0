import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE_FIELD } from '#shared/contracts/profile.ts';
import {
  ADMIN,
  adminCall,
  approveLicence,
  creditPlayer,
  launchBrowser,
  PNG_1X1,
  callApi,
  registerOnSameBrowser,
  registerPlayer,
  signIn,
  startApp,
  type Player,
  type RunningApp,
} from './harness.ts';

/**
 * Payouts in minutes (DESIGN §15, issue 24), in the browser, with the TEST MODE provider: a
 * verified player's $20 in USDT to a TRON address goes through without review and completes on
 * the payouts page without a reload; $600 waits for review "over $500" until the operator's
 * APPROVE & SEND. The sandbox ends a sent withdrawal itself after a minute; the operator's
 * simulate route ends it at once, as the crypto sandbox does for deposits.
 */
const TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  // Every browser here signs in from 127.0.0.1 with one Chromium build, as players behind one
  // carrier do: each is still a device of its own.
  app = await startApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function verifiedPlayer(): Promise<Player> {
  const player = await registerPlayer(browser, app.baseUrl);
  await creditPlayer(app.baseUrl, player.username, '700');
  const upload = await player.context.request.post('/api/user/upload-license', {
    multipart: { [LICENSE_FIELD]: { name: 'licence.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  });
  expect(upload.status()).toBe(201);
  await approveLicence(app.baseUrl, player.username);
  return player;
}

async function requestPayout(player: Player, amount: string): Promise<void> {
  const { page } = player;
  await page.getByRole('button', { name: 'Request Payout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Payout' });
  await dialog.getByLabel('Amount ($)').fill(amount);
  await dialog.getByLabel('Coin').selectOption({ label: 'USDT (TRON)' });
  await dialog.getByLabel('USDT (TRON) address').fill(TRON);
  await dialog.getByRole('button', { name: 'SUBMIT REQUEST' }).click();
  await page.getByText('PAYOUT REQUESTED').first().waitFor();
  await dialog.waitFor({ state: 'detached' });
}

async function newestPayoutId(player: Player): Promise<number> {
  const response = await player.context.request.get('/api/payouts');
  const [newest] = (await response.json()) as Array<{ id: number }>;
  if (!newest) throw new Error('no payout');
  return newest.id;
}

describe('payouts in minutes', () => {
  it('sends $20 without review and completes it live; holds $600 until APPROVE & SEND', async () => {
    const player = await verifiedPlayer();
    const { page } = player;
    await page.goto('/payouts');
    await page.getByText('NO PAYOUT RECORDS FOUND').waitFor();

    await requestPayout(player, '20');
    const history = page.getByRole('list', { name: 'Payout history' });
    const small = history.getByRole('article', { name: 'Payout of $20.00' });
    // Queued, then sent by the sender this instance woke: the hash shows, still PROCESSING.
    await small.getByText('Sent', { exact: true }).waitFor({ timeout: 20_000 });
    await small.getByText(/^[0-9a-f]{64} \(TEST MODE\)$/).waitFor();
    await small.getByText('PROCESSING', { exact: true }).waitFor();

    await adminCall(
      app.baseUrl,
      'POST',
      `/api/sandbox/payouts/${await newestPayoutId(player)}/simulate`,
      {
        status: 'finished',
      },
    );
    await small.getByText('COMPLETED', { exact: true }).waitFor();
    await small.getByText('Took').waitFor();

    await requestPayout(player, '600');
    const large = history.getByRole('article', { name: 'Payout of $600.00' });
    await large.getByText('Waiting for review: over $500').waitFor();

    const admin = await signIn(browser, app.baseUrl, ADMIN);
    await admin.page.goto('/admin');
    await admin.page.getByRole('tab', { name: 'PAYOUTS' }).click();
    await admin.page
      .getByRole('region', { name: 'Payout provider balance' })
      .getByText('Payout provider balance (TEST MODE)')
      .waitFor();
    const row = admin.page.getByRole('article', { name: player.username, exact: true });
    await row.getByText('Waiting for review: over $500').waitFor();
    await row.getByRole('button', { name: 'APPROVE & SEND' }).click();
    await admin.page
      .getByRole('alertdialog', { name: `Send $600.00 to ${player.username}?` })
      .getByRole('button', { name: 'YES, SEND $600.00' })
      .click();
    await admin.page
      .getByText(`$600.00 to ${player.username} is queued to send.`)
      .first()
      .waitFor();

    await large.getByText('Sent', { exact: true }).waitFor({ timeout: 20_000 });
    await adminCall(
      app.baseUrl,
      'POST',
      `/api/sandbox/payouts/${await newestPayoutId(player)}/simulate`,
      {
        status: 'finished',
      },
    );
    await large.getByText('COMPLETED', { exact: true }).waitFor();
    await admin.context.close();
    await player.context.close();
  });

  it('tells devices apart, not browser builds: a player is paid by itself beside a rival on the same build, and a second account on their browser is refused and held', async () => {
    const player = await verifiedPlayer();
    const rival = await verifiedPlayer();
    const userAgent = () => player.page.evaluate(() => navigator.userAgent);
    expect(await rival.page.evaluate(() => navigator.userAgent)).toBe(await userAgent());

    // The rival plays the player: one browser build and one address are no link.
    const terms = {
      game: 'Device Cup',
      amount: 10,
      gamerTag: 'Rival',
      phoneNumber: '+1 555 010 9999',
      console: 'PlayStation',
    };
    const match = await callApi<{ id: number }>(rival.context, 'POST', '/api/challenges', terms);
    await callApi(player.context, 'POST', `/api/challenges/${match.id}/accept`);

    const { page } = player;
    await page.goto('/payouts');
    await requestPayout(player, '20');
    const history = page.getByRole('list', { name: 'Payout history' });
    await history
      .getByRole('article', { name: 'Payout of $20.00' })
      .getByText('Sent', { exact: true })
      .waitFor({ timeout: 20_000 });

    // A second account opened on the player's browser may not play the player.
    const twin = await registerOnSameBrowser(app.baseUrl, player.context);
    const own = await callApi<{ id: number }>(player.context, 'POST', '/api/challenges', {
      ...terms,
      gamerTag: 'Player',
    });
    const refused = await fetch(`${app.baseUrl}/api/challenges/${own.id}/accept`, {
      method: 'POST',
      headers: { cookie: twin.cookie },
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'LINKED_ACCOUNTS',
      message: 'You cannot play an account that shares a device with yours.',
    });

    // The player's next payout waits, and says so without naming the signal.
    await requestPayout(player, '25');
    const held = history.getByRole('article', { name: 'Payout of $25.00' });
    await held.getByText('Waiting for a review by our team', { exact: true }).waitFor();
    expect(await page.getByText(/flagged/).count()).toBe(0);

    // The admin sees why: the device, with the player and the second account, not the rival.
    const admin = await signIn(browser, app.baseUrl, ADMIN);
    await admin.page.goto('/admin');
    await admin.page.getByRole('tab', { name: 'RISK' }).click();
    const devices = admin.page.getByRole('region', { name: 'SHARED DEVICE', exact: true });
    await devices.getByRole('link', { name: twin.username, exact: true }).waitFor();
    await devices.getByRole('link', { name: player.username, exact: true }).waitFor();
    expect(await devices.getByRole('link', { name: rival.username, exact: true }).count()).toBe(0);
    await admin.page.getByRole('tab', { name: 'PAYOUTS' }).click();
    await admin.page
      .getByRole('article', { name: player.username, exact: true })
      .getByText('Waiting for review: flagged: shared device')
      .waitFor();
    await admin.context.close();
    await rival.context.close();
    await player.context.close();
  });
});
