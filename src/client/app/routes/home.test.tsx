import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { CHALLENGE_PAGE_SIZE } from '#client/features/challenges/api/get-challenges.ts';
import {
  makeAcceptedChallenge,
  makeChallenge,
  makeCounts,
  parseRequestUrl,
} from '#client/test-utils/challenges.ts';
import { greetingOf } from './home.tsx';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type ListQuery = Record<string, string>;

function serve(counts = makeCounts(), list: (query: ListQuery) => ChallengeView[] = () => []) {
  return stubFetch(({ url }) => {
    const { path, query } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, makeUser());
    if (path === '/api/challenges/counts') return jsonResponse(200, counts);
    if (path === '/api/challenges') return jsonResponse(200, list(query));
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

function listQueries(fetchMock: ReturnType<typeof stubFetch>): ListQuery[] {
  return fetchMock.mock.calls
    .map(([input]) => parseRequestUrl(String(input)))
    .filter(({ path }) => path === '/api/challenges')
    .map(({ query }) => query);
}

describe('home page', () => {
  it('labels the three tabs with their counts and shows the SPEC empty texts', async () => {
    serve(makeCounts({ available: 0, active: 0, completed: 0 }));
    const user = userEvent.setup();
    renderApp('/');

    expect(await screen.findByRole('tab', { name: 'Available (0)' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const available = await screen.findByRole('tabpanel');
    expect(await within(available).findByText('NO AVAILABLE CHALLENGES')).toBeInTheDocument();
    expect(within(available).getByRole('button', { name: 'Create Challenge' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Active (0)' }));
    expect(await screen.findByText('NO ACTIVE CHALLENGES')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Completed (0)' }));
    expect(await screen.findByText('NO COMPLETED CHALLENGES')).toBeInTheDocument();
  });

  it('shows the counts from the server and asks each tab for its own list', async () => {
    const fetchMock = serve(makeCounts({ available: 7, active: 2, completed: 31 }), (query) =>
      query.status === 'accepted' ? [makeAcceptedChallenge({ id: 40, game: 'Rocket League' })] : [],
    );
    const user = userEvent.setup();
    renderApp('/');

    expect(await screen.findByRole('tab', { name: 'Available (7)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Active (2)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Completed (31)' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Active (2)' }));
    const active = await screen.findByRole('list', { name: 'Active challenges' });
    expect(within(active).getByRole('article', { name: 'Rocket League' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Completed (31)' }));
    await screen.findByText('NO COMPLETED CHALLENGES');

    expect(listQueries(fetchMock)).toEqual([
      { status: 'open', limit: String(CHALLENGE_PAGE_SIZE) },
      { status: 'accepted', role: 'mine', limit: String(CHALLENGE_PAGE_SIZE) },
      { status: 'completed,disputed', role: 'mine', limit: String(CHALLENGE_PAGE_SIZE) },
    ]);
  });

  it('offers Load more while pages come back full, asking for the ids before the last', async () => {
    const firstPage = Array.from({ length: CHALLENGE_PAGE_SIZE }, (_, index) =>
      makeChallenge({ id: 100 - index, game: `Game ${100 - index}` }),
    );
    const secondPage = [makeChallenge({ id: 5, game: 'Game 5' })];
    const fetchMock = serve(makeCounts({ available: CHALLENGE_PAGE_SIZE + 1 }), (query) =>
      query.before ? secondPage : firstPage,
    );
    const user = userEvent.setup();
    renderApp('/');

    const list = await screen.findByRole('list', { name: 'Available challenges' });
    expect(within(list).getAllByRole('article')).toHaveLength(CHALLENGE_PAGE_SIZE);

    await user.click(screen.getByRole('button', { name: 'Load more' }));

    expect(await within(list).findByRole('article', { name: 'Game 5' })).toBeInTheDocument();
    expect(within(list).getAllByRole('article')).toHaveLength(CHALLENGE_PAGE_SIZE + 1);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    const lastId = firstPage.at(-1)?.id;
    expect(listQueries(fetchMock).at(-1)).toMatchObject({ before: String(lastId) });
  });
});

describe('the greeting', () => {
  it('welcomes an account on its first day, and welcomes it back after', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(greetingOf('ace_1', '2026-11-28T11:00:00Z', now)).toBe('WELCOME, ACE_1');
    expect(greetingOf('ace_1', '2026-11-27T11:59:00Z', now)).toBe('WELCOME BACK, ACE_1');
  });
});
