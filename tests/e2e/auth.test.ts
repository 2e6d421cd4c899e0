import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, registerPlayer, startApp, type RunningApp } from './harness.ts';

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

describe('signing up, in and out in a real browser', () => {
  it('a protected route sends an anonymous visitor to /auth, with the purple theme', async () => {
    const context = await browser.newContext({ baseURL: app.baseUrl });
    const page = await context.newPage();
    await page.goto('/profile');
    await page.waitForURL(`${app.baseUrl}/auth`);
    await page.getByRole('tab', { name: 'Login' }).waitFor();
    await page.getByRole('tab', { name: 'Register' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('auth');
    await context.close();
  });

  it('register through the UI, reload keeps the session, logout returns to /auth, login again', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    const { page } = player;
    await page.getByText('$0.00').first().waitFor();
    await page.getByRole('link', { name: /DEPOSIT FUNDS/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('app');

    // The page the server sends names the signed-in user: the app draws it without asking. It
    // reads the user again only once its account socket is open (what happened before the socket
    // reached nobody), which may be before or after the page shows: the order is what is checked.
    // Only the reloaded document counts: the page before it may still be opening its own socket
    // and reading its user when the reload starts, until the new document commits.
    const seen: Array<'user' | 'socket'> = [];
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    page.on('websocket', (socket) => {
      if (reloaded && new URL(socket.url()).pathname === '/ws') seen.push('socket');
    });
    page.on('request', (request) => {
      if (reloaded && new URL(request.url()).pathname === '/api/user') seen.push('user');
    });
    await page.reload();
    await page.getByRole('button', { name: /PROFILE/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    // The reloaded document opens its socket, so what was recorded is that document's.
    await expect.poll(() => seen.includes('socket')).toBe(true);
    const firstUserRead = seen.indexOf('user');
    if (firstUserRead !== -1) expect(seen.slice(0, firstUserRead)).toContain('socket');

    // A signed-in user on /auth goes home.
    await page.goto('/auth');
    await page.waitForURL(`${app.baseUrl}/`);

    await page.getByRole('button', { name: /PROFILE/ }).click();
    await expect(page.getByRole('menuitem', { name: 'ADMIN DASHBOARD' }).count()).resolves.toBe(0);
    await page.getByRole('menuitem', { name: 'LOGOUT' }).click();
    await page.waitForURL(`${app.baseUrl}/auth`);

    await page.goto('/payouts');
    await page.waitForURL(`${app.baseUrl}/auth`);

    await page.getByLabel('Username', { exact: true }).fill(player.username);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: /LOGIN/ }).click();
    await page.getByText('Login failed', { exact: true }).waitFor();
    await page.getByText('Invalid username or password').first().waitFor();

    await page.getByLabel('Password', { exact: true }).fill(player.password);
    await page.getByRole('button', { name: /LOGIN/ }).click();
    await page.waitForURL(`${app.baseUrl}/`);
    await player.context.close();
  });

  it('shows the SPEC messages for a bad registration', async () => {
    const context = await browser.newContext({ baseURL: app.baseUrl });
    const page = await context.newPage();
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Register' }).click();
    await page.getByLabel('Username', { exact: true }).fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('123');
    await page.getByLabel('Phone Number').fill('12ab');
    await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();
    await page.getByText('Phone number must be at least 10 digits').waitFor();
    await page
      .getByText('You must be at least 21 years old and in a valid location to register.')
      .waitFor();
    await context.close();
  });

  it('unknown paths show the 404 page', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    await player.page.goto('/no/such/page');
    await player.page.getByRole('heading', { name: 'NOT FOUND' }).waitFor();
    await player.context.close();
  });

  it('the admin sees ADMIN DASHBOARD and a player sees access denied on /admin', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    await player.page.goto('/admin');
    await player.page.getByText('ACCESS DENIED - ADMIN PRIVILEGES REQUIRED').waitFor();
    await player.context.close();

    const context = await browser.newContext({ baseURL: app.baseUrl });
    const page = await context.newPage();
    await page.goto('/auth');
    await page.getByLabel('Username', { exact: true }).fill('operator');
    await page.getByLabel('Password', { exact: true }).fill('operator-password');
    await page.getByRole('button', { name: /LOGIN/ }).click();
    await page.waitForURL(`${app.baseUrl}/`);
    await page.getByRole('button', { name: /PROFILE/ }).click();
    await page.getByRole('menuitem', { name: 'ADMIN DASHBOARD' }).click();
    await page.waitForURL(`${app.baseUrl}/admin`);
    await context.close();
  });
});
