import type { Browser, Locator, Page } from 'playwright-core';
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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

/**
 * The balance chip in the top bar (the profile page shows the balance too, lower down). Found by
 * its tag: while the dialog is open the rest of the page is hidden from the accessibility tree.
 */
/** Marks the document, so a test can tell that a change arrived live rather than by a reload. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => document.documentElement.setAttribute('data-e2e-mark', 'kept'));
}

async function documentWasKept(page: Page): Promise<boolean> {
  return (await page.evaluate(() => document.documentElement.dataset.e2eMark)) === 'kept';
}

/** From the top bar's DEPOSIT FUNDS link to the dialog's payment choice, for `amount`. */
async function startDeposit(page: Page, amount: string): Promise<Locator> {
  await page.getByRole('link', { name: 'DEPOSIT FUNDS' }).click();
  await page.waitForURL(`${app.baseUrl}/profile`);
  await page.getByRole('button', { name: 'DEPOSIT FUNDS' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deposit Funds' });
  await dialog.getByLabel('Amount ($)').fill(amount);
  await dialog.getByRole('button', { name: 'CONTINUE' }).click();
  await dialog.getByRole('group', { name: 'Payment method' }).waitFor();
  return dialog;
}

async function payByCard(dialog: Locator, cardNumber: string, amountLabel: string) {
  await dialog.getByRole('button', { name: 'Credit Card' }).click();
  await dialog.getByRole('region', { name: 'Test cards' }).waitFor();
  await dialog.getByLabel('Card Number').fill(cardNumber);
  await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: `PAY ${amountLabel}` }).click();
}

/** Draws the QR code's SVG onto a canvas in the page and reads it back with a QR decoder. */
async function scanQrCode(page: Page, qr: Locator): Promise<string | undefined> {
  const handle = await qr.elementHandle();
  const image = await page.evaluate(async (svg) => {
    if (!svg) throw new Error('no QR code');
    const scale = 4;
    const size = Number(svg.getAttribute('viewBox')?.split(' ')[2]) * scale;
    const source = new XMLSerializer().serializeToString(svg);
    const picture = new Image(size, size);
    picture.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(source)}`;
    await picture.decode();
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.drawImage(picture, 0, 0, size, size);
    return { size, data: Array.from(context.getImageData(0, 0, size, size).data) };
  }, handle);
  return jsQR(Uint8ClampedArray.from(image.data), image.size, image.size)?.data;
}

describe('deposits in a real browser, against the offline sandbox', () => {
  it('a card deposit with 4242 4242 4242 4242 raises the top-bar balance live', async () => {
    const { page, context } = await registerPlayer(browser, app.baseUrl);
    await expectTopBarBalance(page, '$0.00');
    const dialog = await startDeposit(page, '25');
    await markDocument(page);

    await payByCard(dialog, '4242 4242 4242 4242', '$25.00');

    const done = dialog.getByRole('status');
    await done.getByText('DEPOSIT SUCCESSFUL').waitFor();
    await done.getByText('$25.00 has been added to your account.').waitFor();
    await expectTopBarBalance(page, '$25.00');
    expect(await documentWasKept(page)).toBe(true);

    await dialog.getByRole('button', { name: 'DONE' }).click();
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });

  it('a declined card, 4000 0000 0000 0002, shows the error panel with RETRY and CANCEL', async () => {
    const { page, context } = await registerPlayer(browser, app.baseUrl, {
      width: 390,
      height: 844,
    });
    const dialog = await startDeposit(page, '40');

    await payByCard(dialog, '4000 0000 0000 0002', '$40.00');

    const alert = dialog.getByRole('alert');
    await alert.getByText('PAYMENT FAILED').waitFor();
    await alert.getByText('Your card was declined.').waitFor();
    await dialog.getByRole('button', { name: 'RETRY' }).waitFor();
    await dialog.getByRole('button', { name: 'CANCEL' }).click();
    expect(await dialog.getByLabel('Amount ($)').inputValue()).toBe('40.00');
    expect(await topBarBalance(page).innerText()).toContain('$0.00');
    await context.close();
  });

  it('a crypto deposit paid on the test checkout raises the balance live and ends PAYMENT CONFIRMED', async () => {
    const { page, context } = await registerPlayer(browser, app.baseUrl);
    const dialog = await startDeposit(page, '30');
    await markDocument(page);

    await dialog.getByRole('button', { name: 'Cryptocurrency' }).click();
    const status = dialog.getByRole('status');
    await status.getByText('WAITING FOR PAYMENT CONFIRMATION...').waitFor();
    await dialog.getByText('0.0006 BTC').waitFor();
    const address = (await dialog.locator('code').innerText()).trim();
    expect(address).toMatch(/^tb1q[a-z0-9]{38}$/);
    const qr = dialog.getByRole('img', { name: 'QR code of the BTC payment address' });
    expect(await scanQrCode(page, qr)).toBe(address);

    const [checkout] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('link', { name: 'Open test checkout' }).click(),
    ]);
    await checkout.getByText('TEST MODE — NO REAL MONEY').waitFor();
    await checkout.getByText(address).waitFor();
    await checkout.getByRole('button', { name: 'Simulate finished' }).click();
    // Not by role: this tab's own Balance Updated toast may be announcing at the same moment.
    await checkout.getByText('The payment is now finished.').waitFor();
    await checkout.close();

    await page.bringToFront();
    // The credit arrives on the account socket at once; the panel learns it at its next poll.
    await expectTopBarBalance(page, '$30.00');
    await status.getByText('PAYMENT CONFIRMED').waitFor({ timeout: 20_000 });
    await dialog.getByRole('button', { name: 'DONE' }).waitFor();
    expect(await documentWasKept(page)).toBe(true);
    await context.close();
  });
});
