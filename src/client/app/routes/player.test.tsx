import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Leaderboard, PlayerProfile } from '#shared/contracts/players.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const RIVAL: PlayerProfile = {
  username: 'rival_one',
  joinedAt: '2025-03-14T12:00:00.000Z',
  record: {
    played: 4,
    won: 3,
    lost: 1,
    tiesLost: 0,
    disputesOpened: 0,
    disputesLost: 1,
    noShows: 0,
    cancelled: 0,
  },
  games: [{ game: 'Tekken 8', played: 3, wins: 2 }],
  results: [
    {
      challengeId: 77,
      game: 'Tekken 8',
      console: 'PC',
      amount: 20,
      won: true,
      score: 3,
      opponentScore: 1,
      opponent: 'ace_player',
      completedAt: '2026-11-20T18:00:00.000Z',
    },
  ],
};

const BOARD: Leaderboard = {
  period: 'month',
  game: 'Tekken 8',
  since: '2026-11-01',
  byNet: [{ rank: 1, username: 'rival_one', played: 4, wins: 3, net: 42.5 }],
  byWins: [{ rank: 1, username: 'rival_one', played: 4, wins: 3, net: 42.5 }],
};

function serve() {
  return stubFetch(({ url }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, makeUser());
    if (path === '/api/players/rival_one') return jsonResponse(200, RIVAL);
    if (path === '/api/leaderboard') return jsonResponse(200, BOARD);
    if (path === '/api/games') return jsonResponse(200, []);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Player not found' });
  });
}

describe('player page', () => {
  it('shows the record, the games played most and the last results with links', async () => {
    serve();
    renderApp('/players/rival_one');

    expect(await screen.findByRole('heading', { level: 1, name: 'rival_one' })).toBeInTheDocument();
    expect(screen.getByText('Joined March 2025')).toBeInTheDocument();
    expect(screen.getByText('4 played · 75% won · 1 dispute lost')).toBeInTheDocument();
    expect(screen.getByText('3 played · 2 won')).toBeInTheDocument();
    const results = screen.getByRole('list', { name: 'Last results of rival_one' });
    expect(within(results).getByText('WON')).toBeInTheDocument();
    expect(within(results).getByLabelText('Score 3 to 1')).toBeInTheDocument();
    expect(within(results).getByRole('link', { name: 'Tekken 8' })).toHaveAttribute(
      'href',
      '/challenges/77',
    );
    expect(within(results).getByRole('link', { name: 'ace_player' })).toHaveAttribute(
      'href',
      '/players/ace_player',
    );
  });

  it('is the app’s not-found page, naming the player, for an unknown or closed account', async () => {
    serve();
    renderApp('/players/nobody');
    expect(await screen.findByRole('heading', { name: 'PLAYER NOT FOUND' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'No player is called nobody: the name may be mistyped, or the account closed.',
      ),
    ).toBeInTheDocument();
  });
});

describe('leaderboard page', () => {
  it('opens the board its link names and shows both tables', async () => {
    const fetchMock = serve();
    renderApp('/leaderboard?period=month&game=Tekken%208');

    const byNet = await screen.findByRole('table', { name: 'By net winnings' });
    expect(within(byNet).getByRole('link', { name: 'rival_one' })).toBeInTheDocument();
    expect(within(byNet).getByText('+$42.50')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'By wins' })).toBeInTheDocument();
    expect(screen.getByLabelText('Period')).toHaveValue('month');
    const asked = fetchMock.mock.calls
      .map(([input]) => parseRequestUrl(String(input)))
      .find(({ path }) => path === '/api/leaderboard');
    expect(asked?.query).toEqual({ period: 'month', game: 'Tekken 8' });
  });
});
