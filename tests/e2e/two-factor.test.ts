import AxeBuilder from '@axe-core/playwright';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FocusWalker } from './focus-check.ts';
import {
  ADMIN,
  NARROW,
  WIDE,
  launchBrowser,
  registerPlayer,
  type RunningApp,
  screenshot,
  signIn,
  startApp,
} from './harness.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Set to a folder to keep pictures of the new screens at both widths, for a person to look at. */

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  // The production default: admins must use two-factor sign-in. Players are not affected.
  app = await startApp({ ADMIN_2FA_REQUIRED: 'true' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const stepOf = (time: number) => Math.floor(time / 30_000);

/**
 * What an authenticator app shows now, for a secret typed in by hand. A code works once, so when
 * `after` (the step of the last code used) is still the current step, it waits for the next.
 */
async function codeFor(secret: string, after?: number): Promise<{ code: string; step: number }> {
  while (after !== undefined && stepOf(Date.now()) <= after) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const now = Date.now();
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: now });
  return { code, step: stepOf(now) };
}

/** Axe at both widths, on the state the page is in; answers one line per violation. */
async function axeAtBothWidths(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    const results = await new AxeBuilder({ page })
      .options({ resultTypes: ['violations'] })
      .withTags(WCAG_TAGS)
      .setLegacyMode()
      .analyze();
    found.push(
      ...results.violations.map(
        (violation) => `${viewport.width} px: ${violation.id}: ${violation.help}`,
      ),
    );
  }
  await page.setViewportSize(WIDE);
  return found;
}

/** No part of the page is wider than the phone: nothing scrolls sideways at 390 px. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await page.setViewportSize(NARROW);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize(WIDE);
}

/** Pictures of the viewport at both widths, with `subject` scrolled into view. */

/**
 * The card's set-up as a player without a camera does it: the key typed into the app, its code
 * typed back. Answers the key and the step of the code used.
 */
async function enableOnCard(
  page: Page,
  shotName: string,
  password: string,
): Promise<{ secret: string; step: number }> {
  const card = page.getByRole('region', { name: 'Two-Factor Sign-In' });
  const walker = new FocusWalker(page, shotName);
  // The password first: a session left open must not be able to turn it on.
  await walker.tabTo(card.getByLabel('Your password'));
  await walker.type(password);
  await walker.tabTo(card.getByRole('button', { name: 'SET UP' }));
  await walker.press('Enter');
  await card
    .getByRole('img', { name: 'QR code to add SkillStake to your authenticator app' })
    .waitFor();
  const secret = (
    await card.getByLabel('No camera? Type this key into the app instead:').innerText()
  ).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await axeAtBothWidths(page)).toEqual([]);
  await expectNoSidewaysScroll(page);
  await screenshot(page, `${shotName}-setup`, card.getByLabel('Code from the app'));

  const { code, step } = await codeFor(secret);
  await walker.tabTo(card.getByLabel('Code from the app'));
  await walker.type(code);
  await walker.press('Enter');
  await card.getByRole('heading', { name: 'SAVE THESE RECOVERY CODES NOW' }).waitFor();
  expect(await axeAtBothWidths(page)).toEqual([]);
  await expectNoSidewaysScroll(page);
  await screenshot(
    page,
    `${shotName}-recovery-codes`,
    card.getByRole('list', { name: 'Recovery codes' }),
  );
  return { secret, step };
}

describe('two-factor sign-in in the browser', () => {
  it('a player turns it on from the profile, then signs in with the password and a code', async () => {
    const player = await registerPlayer(browser, app.baseUrl, WIDE);
    const { page } = player;
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'Two-Factor Sign-In' });
    await card.getByText('Off', { exact: true }).waitFor();

    const { secret, step } = await enableOnCard(page, 'profile', player.password);
    const codes = await card
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(codes).toHaveLength(10);
    await card.getByRole('button', { name: 'I HAVE SAVED THEM' }).click();
    await card.getByText('On', { exact: true }).waitFor();
    await expect(card.getByRole('button', { name: 'TURN OFF' }).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: /PROFILE/ }).click();
    await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
    await page.waitForURL(`${app.baseUrl}/auth`);

    // The password step, then the code, by keyboard alone.
    const walker = new FocusWalker(page, 'second step');
    await walker.tabTo(page.getByLabel('Username', { exact: true }));
    await walker.type(player.username);
    await walker.press('Tab');
    await walker.type(player.password);
    await walker.press('Enter');
    const codeField = page.getByLabel('Authentication code');
    await codeField.waitFor();
    await walker.check('the second step appeared');
    expect(await axeAtBothWidths(page)).toEqual([]);
    await expectNoSidewaysScroll(page);
    await screenshot(page, 'login-second-step', codeField);

    await walker.type('000000');
    await walker.press('Enter');
    await page.getByText('That code is not valid. Please try again.').waitFor();
    await screenshot(page, 'login-second-step-error', codeField);

    const next = await codeFor(secret, step);
    await codeField.fill(next.code);
    // Signed in, the app goes to the lobby, a new page whose focus starts at its top: the walker
    // has nothing to check until the player tabs again.
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.baseUrl}/`);
    await page.getByRole('heading', { name: 'SKILL CHALLENGES' }).waitFor();

    // A second browser, on a phone, that has lost the app: a recovery code lets it in, once.
    const phone = await browser.newContext({ baseURL: app.baseUrl, viewport: NARROW });
    const phonePage = await phone.newPage();
    await phonePage.goto('/auth');
    await phonePage.getByLabel('Username', { exact: true }).fill(player.username);
    await phonePage.getByLabel('Password', { exact: true }).fill(player.password);
    await phonePage.getByRole('button', { name: /LOGIN/ }).click();
    await phonePage.getByRole('button', { name: 'Use a recovery code' }).click();
    await phonePage.getByLabel('Recovery code').fill(codes[0] ?? '');
    await phonePage.getByRole('button', { name: 'VERIFY' }).click();
    await phonePage.waitForURL(`${app.baseUrl}/`);
    await phone.close();
    await player.context.close();
  });

  it('an admin is shown the set-up instead of the tabs, and the tabs once it is on', async () => {
    const { context, page } = await signIn(browser, app.baseUrl, ADMIN, WIDE);
    await page.goto('/admin');
    await page.getByText('Set up two-factor sign-in to use the admin dashboard.').waitFor();
    expect(await page.getByRole('tablist').count()).toBe(0);
    expect(await axeAtBothWidths(page)).toEqual([]);
    await screenshot(page, 'admin-gate', page.getByRole('button', { name: 'SET UP' }));

    await enableOnCard(page, 'admin', ADMIN.password);
    expect(await page.getByRole('tablist').count()).toBe(0);
    await page.getByRole('button', { name: 'I HAVE SAVED THEM' }).click();
    await page.getByRole('tablist', { name: 'Admin sections' }).waitFor();
    await page.getByText('LEDGER OK').waitFor();
    await screenshot(page, 'admin-after', page.getByRole('tablist', { name: 'Admin sections' }));
    await context.close();
  });
});
