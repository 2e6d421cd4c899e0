import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  creditPlayer,
  launchBrowser,
  registerPlayer,
  startApp,
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

describe('finding an opponent (DESIGN §12)', () => {
  it('a player filters the lobby, shares the view by its address, and opens an opponent’s page from a card', async () => {
    const creator = await registerPlayer(browser, app.baseUrl);
    const seeker = await registerPlayer(browser, app.baseUrl, { width: 390, height: 844 });
    await creditPlayer(app.baseUrl, creator.username, '200');
    const offer = async (game: string, console: string, amount: number) =>
      callApi(creator.context, 'POST', '/api/challenges', {
        game,
        console,
        amount,
        gamerTag: 'Striker',
        phoneNumber: '+1 555 010 9999',
      });
    await offer('EA Sports FC 26', 'PlayStation', 20);
    await offer('EA Sports FC 26', 'Xbox', 20);
    await offer('EA Sports FC 26', 'PlayStation', 50);
    await offer('Madden NFL 26', 'PlayStation', 20);

    const { page } = seeker;
    await page.goto('/');
    const filters = page.getByRole('search', { name: 'Challenges' });
    await filters.getByLabel('Game').fill('fc 26');
    await filters.getByLabel('Console').selectOption('PlayStation');
    await filters.getByLabel('Min stake ($)').fill('10');
    await filters.getByLabel('Max stake ($)').fill('25');
    await page.waitForURL(/maxAmount=25/);
    await page.getByRole('tab', { name: /Available\s*\(1\)/ }).waitFor();
    const list = page.getByRole('list', { name: 'Available challenges' });
    await expect.poll(() => list.getByRole('article').count()).toBe(1);
    expect(await list.getByRole('article').first().innerText()).toContain('$20.00');

    // The address is the view: opened afresh, it shows the same filters and the same list.
    const shared = page.url();
    expect(new URL(shared).search).toBe(
      '?game=fc+26&console=PlayStation&minAmount=10&maxAmount=25',
    );
    await page.goto(shared);
    await expect.poll(() => filters.getByLabel('Console').inputValue()).toBe('PlayStation');
    await page.getByRole('tab', { name: /Available\s*\(1\)/ }).waitFor();
    // No page scrolls sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    // The creator's name on the card leads to their page.
    await list.getByRole('link', { name: creator.username, exact: true }).click();
    await page.waitForURL(`${app.baseUrl}/players/${creator.username}`);
    await page.getByRole('heading', { level: 1, name: creator.username }).waitFor();
    await page.getByText('New player').waitFor();
    await page.getByText('NO RESULTS YET').waitFor();

    // Back in the lobby, Clear filters shows every open challenge again.
    await page.goto(shared);
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(`${app.baseUrl}/`);
    await page.getByRole('tab', { name: /Available\s*\(4\)/ }).waitFor();

    await creator.context.close();
    await seeker.context.close();
  });
});
