import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerPlayer, startApp, type RunningApp } from './harness.ts';

/**
 * The Content-Security-Policy in a real browser (issue 9): the built app must run under it with
 * no violation at all, while the browser enforces it (inline script refused, framing refused).
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

interface Watched {
  context: BrowserContext;
  page: Page;
  violations: string[];
}

/** A page whose every CSP complaint, from the console or the DOM event, is collected. */
async function watch(context: BrowserContext, page?: Page): Promise<Watched> {
  const violations: string[] = [];
  // Runs before the app's own code in every document; init scripts are not subject to the CSP.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      // eslint-disable-next-line no-console -- the browser's console is how the test hears it
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI}`,
      );
    });
  });
  const target = page ?? (await context.newPage());
  target.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return { context, page: target, violations };
}

describe('the Content-Security-Policy in Chromium', () => {
  it('the sign-in page and the home page load and work with no violation', async () => {
    const context = await browser.newContext({ baseURL: app.baseUrl });
    const { page, violations } = await watch(context);

    const document = await page.goto('/auth');
    const csp = document?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(document?.headers()['x-frame-options']).toBe('DENY');
    expect(document?.headers()['x-content-type-options']).toBe('nosniff');
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username', { exact: true }).waitFor();
    expect(violations).toEqual([]);
    await context.close();
  });

  it('a signed-in player uses the app (account socket, dialogs, pages) with no violation', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    const context = player.context;
    // registerPlayer already opened the page; watch it and every page opened from now on.
    const { page, violations } = await watch(context, player.page);
    // The account socket (connect-src) is opened by a fresh load of the home page.
    const socket = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/ws'));
    await page.goto('/');
    expect((await socket).isClosed()).toBe(false);
    await page.getByText('$0.00').first().waitFor();

    // A dialog: Radix locks scrolling with a <style> element (style-src allows it).
    await page
      .getByRole('button', { name: /Create Challenge/ })
      .first()
      .click();
    await page.getByRole('dialog').getByLabel('Game', { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    for (const path of ['/profile', '/payouts', '/']) {
      await page.goto(path);
      await page.getByRole('button', { name: /PROFILE/ }).waitFor();
    }
    // Fonts, styles and lazy chunks have all loaded by now.
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('the browser enforces it: inline script is refused and the app cannot be framed', async () => {
    const context = await browser.newContext({ baseURL: app.baseUrl });
    const { page, violations } = await watch(context);
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Login' }).waitFor();

    // The watcher works: an injected inline script is blocked and reported.
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(violations.join('\n')).toMatch(/script-src/);

    // Another page frames the app: frame-ancestors 'none' leaves the frame empty.
    const framer = await context.newPage();
    await framer.setContent(`<iframe id="app" src="${app.baseUrl}/auth"></iframe>`);
    const frame = await (await framer.waitForSelector('#app')).contentFrame();
    // Chromium replaces a refused frame with its error page instead of loading the app.
    await expect.poll(() => frame?.url()).toMatch(/^chrome-error:/);
    const rendered = await frame
      ?.evaluate(() => document.querySelector('#root')?.childElementCount ?? 0)
      .catch(() => 0);
    expect(rendered ?? 0).toBe(0);
    await context.close();
  });
});
