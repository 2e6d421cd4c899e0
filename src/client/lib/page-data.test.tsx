import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { Leaderboard, PlayerProfile } from '#shared/contracts/players.ts';
import type { TournamentSummary } from '#shared/contracts/tournaments.ts';
import { PAGE_DATA_ELEMENT_ID, type PageQuery } from '#shared/page-data.ts';
import { PAGE_QUERY_CONTRACTS } from '#client/app/page-queries.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { createQueryClient } from '#client/lib/query-client.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { pageQueriesFrom, seedPageData } from './page-data.ts';
import { pageWithBlock } from '#client/test-utils/page.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const page = (block?: string) => pageWithBlock(PAGE_DATA_ELEMENT_ID, block);

/** The block as the server writes it: `<` escaped. */
const blockOf = (queries: PageQuery[]) => JSON.stringify(queries).replaceAll('<', '\\u003c');

const RIVAL: PlayerProfile = {
  username: 'Rival_One',
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
  games: [{ game: 'Tekken <8>', played: 3, wins: 2 }],
  results: [],
};

const BOARD: Leaderboard = {
  period: 'month',
  game: 'Tekken 8',
  since: '2026-11-01',
  byNet: [{ rank: 1, username: 'rival_one', played: 4, wins: 3, net: 42.5 }],
  byWins: [{ rank: 1, username: 'rival_one', played: 4, wins: 3, net: 42.5 }],
};

const CUP: TournamentSummary = {
  id: 5,
  game: 'Street Fighter 6',
  console: 'PC',
  entryFee: 3,
  size: 8,
  startsAt: '2026-12-01T18:00:00.000Z',
  status: 'open',
  allowByes: true,
  prizeSplit: [70, 30],
  entrants: 2,
  placesLeft: 6,
  prizePool: 5.7,
  joined: false,
};

describe('pageQueriesFrom', () => {
  it('reads the answers the page carries, < escaped', () => {
    const queries: PageQuery[] = [{ query: 'player', key: ['players', 'rival_one'], data: RIVAL }];
    expect(pageQueriesFrom(page(blockOf(queries)))).toEqual(queries);
  });

  it('reads none from a page without them, or with something unreadable', () => {
    expect(pageQueriesFrom(page())).toEqual([]);
    expect(pageQueriesFrom(page(''))).toEqual([]);
    expect(pageQueriesFrom(page('[{"query":'))).toEqual([]);
    expect(pageQueriesFrom(page('{"query":"player"}'))).toEqual([]);
    expect(pageQueriesFrom(page('[{"query":"wallet","key":["wallet"],"data":1}]'))).toEqual([]);
    expect(pageQueriesFrom(page('[{"query":"player","key":"players","data":1}]'))).toEqual([]);
  });
});

describe('seedPageData', () => {
  it('puts each answer under its key at once, and asks nothing', () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    const queryClient = createQueryClient();
    void seedPageData(
      queryClient,
      page(blockOf([{ query: 'player', key: ['players', 'rival_one'], data: RIVAL }])),
      PAGE_QUERY_CONTRACTS,
      new Promise(() => {}),
    );
    expect(queryClient.getQueryData(['players', 'rival_one'])).toEqual(RIVAL);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps, once checked, an answer that meets its contract, and drops one that does not', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    const queryClient = createQueryClient();
    await seedPageData(
      queryClient,
      page(
        blockOf([
          { query: 'player', key: ['players', 'rival_one'], data: RIVAL },
          { query: 'leaderboard', key: ['leaderboard', 'week', ''], data: { period: 'week' } },
        ]),
      ),
      PAGE_QUERY_CONTRACTS,
      Promise.resolve(),
    );
    expect(queryClient.getQueryData(['players', 'rival_one'])).toEqual(RIVAL);
    // Dropped: a screen showing it would read it from the API.
    expect(queryClient.getQueryData(['leaderboard', 'week', ''])).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps an answer whose contract cannot load: the API’s would meet the same refusal', async () => {
    const queryClient = createQueryClient();
    await seedPageData(
      queryClient,
      page(blockOf([{ query: 'player', key: ['players', 'rival_one'], data: RIVAL }])),
      { ...PAGE_QUERY_CONTRACTS, player: () => Promise.reject(new Error('offline')) },
      Promise.resolve(),
    );
    expect(queryClient.getQueryData(['players', 'rival_one'])).toEqual(RIVAL);
  });
});

describe('a screen whose data the page carried', () => {
  /** Seeds a client as main.tsx does from a page carrying `queries`, signed in. */
  async function seeded(queries: PageQuery[]) {
    const queryClient = createQueryClient();
    queryClient.setQueryData(userQueryKey, makeUser());
    // Checked at once here, not after a paint jsdom never reports.
    await seedPageData(
      queryClient,
      page(blockOf(queries)),
      PAGE_QUERY_CONTRACTS,
      Promise.resolve(),
    );
    return queryClient;
  }

  /** The API paths the client asked for. */
  function serve() {
    const fetchMock = stubFetch(({ url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/games') return jsonResponse(200, []);
      return jsonResponse(500, { code: 'INTERNAL', message: 'not expected' });
    });
    return () => fetchMock.mock.calls.map(([input]) => parseRequestUrl(String(input)).path);
  }

  it('draws the player from it and does not ask for them again', async () => {
    const asked = serve();
    const queryClient = await seeded([
      { query: 'player', key: ['players', 'rival_one'], data: RIVAL },
    ]);
    renderApp('/players/Rival_One', queryClient);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rival_One' })).toBeInTheDocument();
    expect(screen.getByText('Tekken <8>')).toBeInTheDocument();
    expect(asked()).not.toContain('/api/players/Rival_One');
  });

  it('draws the leaderboard of the address from it and does not ask for it again', async () => {
    const asked = serve();
    const queryClient = await seeded([
      { query: 'leaderboard', key: ['leaderboard', 'month', 'tekken 8'], data: BOARD },
    ]);
    renderApp('/leaderboard?period=month&game=Tekken%208', queryClient);
    expect(await screen.findByRole('table', { name: 'By net winnings' })).toBeInTheDocument();
    expect(screen.getByText('+$42.50')).toBeInTheDocument();
    expect(asked()).not.toContain('/api/leaderboard');
  });

  it('draws the tournaments from it and does not ask for them again', async () => {
    const asked = serve();
    const queryClient = await seeded([
      { query: 'tournaments', key: ['tournaments', 'list'], data: [CUP] },
    ]);
    renderApp('/tournaments', queryClient);
    expect(await screen.findByRole('link', { name: 'Street Fighter 6' })).toBeInTheDocument();
    expect(asked()).not.toContain('/api/tournaments');
  });
});
