import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FocusWalker, isFocused } from './focus-check.ts';
import {
  ADMIN,
  callApi,
  creditPlayer,
  launchBrowser,
  registerPlayer,
  signIn,
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

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

/** A registered account with money, made through the harness (setup, not the path under test). */
async function fundedPlayer(): Promise<{ username: string; password: string }> {
  const { context, username, password } = await registerPlayer(browser, app.baseUrl);
  await context.close();
  await creditPlayer(app.baseUrl, username, '100');
  return { username, password };
}

/** Opens /auth in a new browser context and signs in with the keyboard alone. */
async function signInByKeyboard(
  credentials: { username: string; password: string },
  viewport: { width: number; height: number },
  who: string,
): Promise<{ page: Page; walker: FocusWalker }> {
  const context = await browser.newContext({ baseURL: app.baseUrl, viewport });
  const page = await context.newPage();
  const walker = new FocusWalker(page, `${who} at ${viewport.width} px`);
  await page.goto('/auth');
  await walker.tabTo(page.getByLabel('Username', { exact: true }));
  await walker.type(credentials.username);
  await walker.press('Tab');
  expect(await isFocused(page.getByLabel('Password', { exact: true }))).toBe(true);
  await walker.type(credentials.password);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${app.baseUrl}/`);
  return { page, walker };
}

describe.each(VIEWPORTS)('keyboard only, at $width px', (viewport) => {
  it('signs in, creates a challenge, accepts it as another player and submits the results', async () => {
    const game = `Tekken ${viewport.width}`;
    const creatorAccount = await fundedPlayer();
    const acceptorAccount = await fundedPlayer();

    // The creator opens Create Challenge, leaves with Escape, comes back and creates.
    const creator = await signInByKeyboard(creatorAccount, viewport, 'the creator');
    const createButton = creator.page.getByRole('button', { name: 'Create Challenge' }).first();
    await creator.walker.tabTo(createButton);
    await creator.walker.press('Enter');
    const createDialog = creator.page.getByRole('dialog', { name: 'Create Challenge' });
    await createDialog.getByLabel('Game', { exact: true }).waitFor();
    await creator.page.keyboard.press('Escape');
    await createDialog.waitFor({ state: 'detached' });
    // Radix hands focus back a task after the dialog has gone.
    await expect.poll(() => isFocused(createButton), { message: 'focus after Escape' }).toBe(true);
    await creator.walker.check('Escape');

    await creator.walker.press('Enter');
    await creator.walker.tabTo(createDialog.getByLabel('Game', { exact: true }));
    await creator.walker.type(game);
    await creator.walker.press('Tab');
    await creator.walker.type('20');
    await creator.walker.press('Tab');
    const consoleSelect = createDialog.getByLabel('Console');
    expect(await isFocused(consoleSelect)).toBe(true);
    // A closed native select steps through its options with the arrow keys.
    for (let step = 0; step < 5 && (await consoleSelect.inputValue()) !== 'PlayStation'; step++) {
      await creator.walker.press('ArrowDown');
    }
    expect(await consoleSelect.inputValue()).toBe('PlayStation');
    await creator.walker.tabTo(createDialog.getByLabel('Gamer Tag'));
    await creator.walker.type('Heihachi');
    await creator.walker.tabTo(createDialog.getByRole('button', { name: 'CREATE CHALLENGE' }));
    await creator.page.keyboard.press('Enter');
    await createDialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => isFocused(createButton), { message: 'focus after creating' })
      .toBe(true);
    await creator.walker.check('creating the challenge');

    // The acceptor finds it on the Available tab and accepts it (Space, this time).
    const acceptor = await signInByKeyboard(acceptorAccount, viewport, 'the acceptor');
    const available = acceptor.page.getByRole('tabpanel', { name: /Available/ });
    const cards = available.getByRole('article');
    const card = available.getByRole('article', { name: game });
    await acceptor.walker.tabTo(card.getByRole('button', { name: 'ACCEPT CHALLENGE' }));
    const position = await card.evaluate((article) =>
      Array.from(article.closest('ul')?.querySelectorAll<Element>('article') ?? []).indexOf(
        article,
      ),
    );
    await acceptor.page.keyboard.press('Space');
    // The confirmation opens on its safe choice; Tab reaches the one that stakes.
    const confirm = acceptor.page.getByRole('alertdialog', { name: 'Accept this challenge?' });
    await confirm.waitFor();
    await acceptor.walker.tabTo(confirm.getByRole('button', { name: /^YES, STAKE/ }));
    await acceptor.page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    // The card has left the list: focus goes to the card that took its place (or the new last
    // one), or to the empty list's Create Challenge.
    const remaining = await cards.count();
    const successor =
      remaining > 0
        ? cards
            .nth(Math.min(position, remaining - 1))
            .getByRole('heading')
            .getByRole('link')
        : available.getByRole('button', { name: 'Create Challenge' });
    await expect.poll(() => isFocused(successor), { message: 'focus after accepting' }).toBe(true);
    await acceptor.walker.check('accepting the challenge');

    // The Active tab (arrow keys, as in any tab list), then the challenge's page.
    await acceptor.walker.tabTo(acceptor.page.getByRole('tab', { name: /Available/ }), {
      backwards: true,
    });
    await acceptor.walker.press('ArrowRight');
    const active = acceptor.page.getByRole('tabpanel', { name: /Active/ });
    await acceptor.walker.tabTo(active.getByRole('link', { name: game }));
    await acceptor.page.keyboard.press('Enter');
    await acceptor.page.waitForURL(/\/challenges\/\d+$/);
    await acceptor.page.getByRole('heading', { level: 1, name: game }).waitFor();

    // Voice chat's Connect, then back up to SUBMIT RESULTS.
    await acceptor.walker.tabTo(acceptor.page.getByRole('button', { name: 'Connect' }));
    const submitButton = acceptor.page.getByRole('button', { name: 'SUBMIT RESULTS' });
    await acceptor.walker.tabTo(submitButton, { backwards: true });
    await acceptor.walker.press('Enter');
    const submitDialog = acceptor.page.getByRole('dialog', { name: 'Submit Results' });
    await acceptor.walker.tabTo(submitDialog.getByLabel('Creator Score'));
    await acceptor.page.keyboard.press('Control+A');
    await acceptor.walker.type('1');
    await acceptor.walker.press('Tab');
    await acceptor.page.keyboard.press('Control+A');
    await acceptor.walker.type('3');
    await acceptor.walker.tabTo(submitDialog.getByLabel('Screenshot URL'));
    await acceptor.walker.type('https://i.imgur.com/tekken-win.png');
    await acceptor.walker.tabTo(submitDialog.getByRole('button', { name: 'SEND RESULTS' }));
    await acceptor.page.keyboard.press('Enter');

    const results = acceptor.page.getByRole('dialog', { name: 'CHALLENGE RESULTS SUBMITTED' });
    await results.getByText('YOU WON').waitFor();
    await acceptor.walker.check('sending the results');
    await acceptor.page.keyboard.press('Escape');
    await results.waitFor({ state: 'detached' });
    // The page now shows the result; focus goes to its heading rather than to nowhere.
    await expect
      .poll(() => isFocused(acceptor.page.getByRole('heading', { level: 1, name: game })))
      .toBe(true);
    await acceptor.walker.check('closing the results');
  });

  it('tabs through every control of the long pages, forwards and back, with the focus in view', async () => {
    // A player with challenges in several states, so that the pages run long.
    const creator = await registerPlayer(browser, app.baseUrl, viewport);
    const opponent = await registerPlayer(browser, app.baseUrl, viewport);
    await creditPlayer(app.baseUrl, creator.username, '500');
    await creditPlayer(app.baseUrl, opponent.username, '500');
    const createChallenge = async (game: string) => {
      const body = { game, amount: 10, gamerTag: 'Kazuya', console: 'PC' };
      const created = await callApi<{ id: number }>(creator.context, 'POST', '/api/challenges', {
        ...body,
        phoneNumber: '+1 555 010 9999',
      });
      return created.id;
    };
    for (const game of ['Street Fighter 6', 'Rocket League', 'Chess', 'Halo Infinite']) {
      await createChallenge(game);
    }
    const match = await createChallenge('Mortal Kombat 1');
    await callApi(opponent.context, 'POST', `/api/challenges/${match}/accept`);
    const { id: creatorId } = await callApi<{ id: number }>(creator.context, 'GET', '/api/user');
    const admin = await signIn(browser, app.baseUrl, ADMIN, viewport);

    const pages: Array<[string, Page, string]> = [
      ['the lobby', opponent.page, '/'],
      ['a match in play, with voice chat', creator.page, `/challenges/${match}`],
      ['the profile', creator.page, '/profile'],
      ['the limits page', creator.page, '/play-responsibly'],
      ['the admin dashboard', admin.page, '/admin'],
      ['a player’s page, for the admin', admin.page, `/admin/players/${creatorId}`],
    ];
    for (const [name, page, path] of pages) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await expect
        .poll(() => page.locator('[role="status"][aria-label^="Loading"]').count())
        .toBe(0);
      const walker = new FocusWalker(page, `${name} at ${viewport.width} px`);
      // Ten controls at the least, each reached on the way down and again on the way up.
      expect(await walker.tabThroughPage()).toBeGreaterThan(20);
    }
    // Six long pages, each walked down and back up, one key at a time: the admin's OVERVIEW and
    // a player's page added some hundred stops.
  }, 150_000);

  it('tabs through the filtered lobby, a player page and the leaderboard, forwards and back', async () => {
    const creator = await registerPlayer(browser, app.baseUrl, viewport);
    const opponent = await registerPlayer(browser, app.baseUrl, viewport);
    await creditPlayer(app.baseUrl, creator.username, '100');
    for (const game of ['Street Fighter 6', 'Rocket League']) {
      await callApi(creator.context, 'POST', '/api/challenges', {
        game,
        amount: 10,
        gamerTag: 'Kazuya',
        console: 'PC',
        phoneNumber: '+1 555 010 9999',
      });
    }
    const pages: Array<[string, Page, string]> = [
      ['the lobby, filtered', opponent.page, '/?console=PC&sort=amount_asc'],
      ['a player page', opponent.page, `/players/${creator.username}`],
      ['the leaderboard', creator.page, '/leaderboard?period=all'],
    ];
    for (const [name, page, path] of pages) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await expect
        .poll(() => page.locator('[role="status"][aria-label^="Loading"]').count())
        .toBe(0);
      const walker = new FocusWalker(page, `${name} at ${viewport.width} px`);
      expect(await walker.tabThroughPage()).toBeGreaterThan(10);
    }
  });

  it('joins a tournament and tabs through the tournaments, forwards and back', async () => {
    const player = await registerPlayer(browser, app.baseUrl, viewport);
    await creditPlayer(app.baseUrl, player.username, '100');
    const admin = await signIn(browser, app.baseUrl, ADMIN, viewport);
    const { id } = await callApi<{ id: number }>(admin.context, 'POST', '/api/admin/tournaments', {
      game: `Tekken ${viewport.width}`,
      console: 'PlayStation',
      entryFee: 5,
      size: 8,
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await player.page.goto(`/tournaments/${id}`);
    const walker = new FocusWalker(player.page, `a tournament at ${viewport.width} px`);
    await walker.tabTo(player.page.getByRole('button', { name: 'JOIN FOR $5.00' }));
    await walker.press('Enter');
    await player.page.getByRole('button', { name: /LEAVE/ }).waitFor();
    const game = `Tekken ${viewport.width}`;
    // Each walk starts once the page's content has come, not only its heading: an admin's lists
    // arrive with the creation form, after the heading.
    for (const [name, page, path, content] of [
      [
        'a tournament',
        player.page,
        `/tournaments/${id}`,
        player.page.getByRole('button', { name: /LEAVE/ }),
      ],
      [
        'the tournaments',
        player.page,
        '/tournaments',
        player.page.getByRole('link', { name: game }),
      ],
      [
        'the tournaments, to the admin',
        admin.page,
        '/tournaments',
        admin.page.getByRole('link', { name: game }),
      ],
    ] as const) {
      await page.goto(path);
      await content.first().waitFor();
      const pageWalker = new FocusWalker(page, `${name} at ${viewport.width} px`);
      expect(await pageWalker.tabThroughPage()).toBeGreaterThan(5);
    }
  });
});
