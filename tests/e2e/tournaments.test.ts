import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentDetail } from '#shared/contracts/tournaments.ts';
import {
  ADMIN,
  callApi,
  creditPlayer,
  expectTopBarBalance,
  launchBrowser,
  registerPlayer,
  signIn,
  startApp,
  type Player,
  type RunningApp,
} from './harness.ts';

/**
 * A tournament (issue 23, DESIGN §13) in five browsers: four players join from its page, the
 * worker starts it at its start time and the bracket fills in front of them, the semi-finals are
 * played, the final is reported and confirmed on the page, and the winner's balance changes live.
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

const RESULT_SHOT = 'https://i.imgur.com/tournament-final.png';

describe('a tournament of four', () => {
  it('four players join, the bracket fills, the final is reported, the winner is paid live', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 4; i += 1) {
      const player = await registerPlayer(
        browser,
        app.baseUrl,
        i === 3 ? { width: 390, height: 844 } : undefined,
      );
      await creditPlayer(app.baseUrl, player.username, '20');
      players.push(player);
    }
    const admin = await signIn(browser, app.baseUrl, ADMIN);
    // The worker looks every 5 s: the start is a little after the joins can be done.
    const startsAt = new Date(Date.now() + 25_000).toISOString();
    const created = await callApi<TournamentDetail>(
      admin.context,
      'POST',
      '/api/admin/tournaments',
      {
        game: 'Tekken 8',
        console: 'PlayStation',
        entryFee: 10,
        size: 4,
        startsAt,
      },
    );

    for (const player of players) {
      await player.page.goto(`/tournaments/${created.id}`);
      await player.page.getByRole('button', { name: 'JOIN FOR $10.00' }).click();
      await player.page.getByRole('button', { name: /LEAVE/ }).waitFor();
      await expectTopBarBalance(player.page, '$10.00');
    }
    const watcher = players[0];
    if (!watcher) throw new Error('four players');
    // The first player's page learns of the others' joins over the socket.
    await watcher.page.getByText('0', { exact: true }).first().waitFor();

    // At the start time the bracket appears on the open page, without a reload.
    const bracket = watcher.page.getByRole('region', { name: 'Bracket' });
    await bracket.waitFor({ timeout: 45_000 });
    await bracket.getByRole('article', { name: 'Semi-finals, match 1' }).waitFor();

    const byName = new Map(players.map((player) => [player.username, player]));
    let view = await callApi<TournamentDetail>(
      admin.context,
      'GET',
      `/api/tournaments/${created.id}`,
    );
    expect(view.status).toBe('live');
    for (const match of view.matches.filter((m) => m.round === 1)) {
      const a = byName.get(match.playerA?.username ?? '');
      const b = byName.get(match.playerB?.username ?? '');
      if (!a || !b) throw new Error('a semi-final of two players');
      await callApi(a.context, 'POST', `/api/tournaments/${view.id}/matches/${match.id}/submit`, {
        creatorScore: 2,
        acceptorScore: 1,
        screenshot: RESULT_SHOT,
      });
      await callApi(b.context, 'POST', `/api/tournaments/${view.id}/matches/${match.id}/confirm`);
    }
    view = await callApi<TournamentDetail>(admin.context, 'GET', `/api/tournaments/${view.id}`);
    const final = view.matches.find((m) => m.round === 2);
    const winner = byName.get(final?.playerA?.username ?? '');
    const loser = byName.get(final?.playerB?.username ?? '');
    if (!final || !winner || !loser) throw new Error('a final of two players');

    // The final's winner reports it on the page; the loser confirms it on theirs.
    await winner.page.goto(`/tournaments/${view.id}`);
    await loser.page.goto(`/tournaments/${view.id}`);
    const report = winner.page.getByRole('form', { name: 'Report the result' });
    await report.getByLabel(`${winner.username}'s score`).fill('3');
    await report.getByLabel(`${loser.username}'s score`).fill('0');
    await report.getByLabel('Screenshot URL').fill(RESULT_SHOT);
    await report.getByRole('button', { name: 'REPORT RESULT' }).click();
    await loser.page.getByRole('button', { name: 'CONFIRM RESULT' }).click();

    // $40 pool − $2 fee = $38: 70% ($26.60) to the champion, 30% ($11.40) to the runner-up.
    await expectTopBarBalance(winner.page, '$36.60');
    await expectTopBarBalance(loser.page, '$21.40');
    await winner.page.getByText('1st · ' + winner.username).waitFor();
    view = await callApi<TournamentDetail>(admin.context, 'GET', `/api/tournaments/${view.id}`);
    expect(view).toMatchObject({ status: 'finished', winnerId: final.playerA?.id });
    // Four registrations through the form and a start time to wait for: a minute on a quiet
    // machine.
  }, 180_000);
});
