import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { makeChallenge, makeCounts, parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

type Query = Record<string, string>;

function serve(list: (query: Query) => ChallengeView[] = () => []) {
  return stubFetch(({ url }) => {
    const { path, query } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, makeUser());
    if (path === '/api/challenges/counts') {
      return jsonResponse(200, makeCounts(query.console === 'Xbox' ? { available: 1 } : {}));
    }
    if (path === '/api/challenges') return jsonResponse(200, list(query));
    if (path === '/api/games') {
      return jsonResponse(200, [
        { name: 'EA Sports FC 26', challenges: 12 },
        { name: 'Fortnite', challenges: 3 },
      ]);
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

function requests(fetchMock: ReturnType<typeof stubFetch>, path: string): Query[] {
  return fetchMock.mock.calls
    .map(([input]) => parseRequestUrl(String(input)))
    .filter((request) => request.path === path)
    .map(({ query }) => query);
}

describe('the lobby filter bar', () => {
  it('opens a shared link with its filters in the bar, the lists and the counts', async () => {
    const fetchMock = serve((query) =>
      query.console === 'Xbox' ? [makeChallenge({ id: 5, game: 'EA Sports FC 26' })] : [],
    );
    renderApp('/?game=fc&console=Xbox&minAmount=10&sort=amount_desc');

    const filters = await screen.findByRole('search', { name: 'Challenges' });
    expect(within(filters).getByLabelText('Game')).toHaveValue('fc');
    expect(within(filters).getByLabelText('Console')).toHaveValue('Xbox');
    expect(within(filters).getByLabelText('Min stake ($)')).toHaveValue('10');
    expect(within(filters).getByLabelText('Max stake ($)')).toHaveValue('');
    expect(within(filters).getByLabelText('Sort')).toHaveValue('amount_desc');
    expect(await screen.findByRole('tab', { name: 'Available (1)' })).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'EA Sports FC 26' })).toBeInTheDocument();

    expect(requests(fetchMock, '/api/challenges')[0]).toEqual({
      game: 'fc',
      console: 'Xbox',
      minAmount: '10',
      sort: 'amount_desc',
      status: 'open',
      limit: '24',
    });
    // The order changes no count, so the counts are not asked for it.
    expect(requests(fetchMock, '/api/challenges/counts')).toContainEqual({
      game: 'fc',
      console: 'Xbox',
      minAmount: '10',
    });
  });

  it('puts each choice in the address, after a pause for what is typed, and clears them all', async () => {
    const fetchMock = serve();
    const user = userEvent.setup();
    const { history } = renderApp('/');
    const filters = await screen.findByRole('search', { name: 'Challenges' });

    await user.selectOptions(within(filters).getByLabelText('Console'), 'Xbox');
    expect(history.at(-1)).toBe('/?console=Xbox');
    expect(await screen.findByRole('tab', { name: 'Available (1)' })).toBeInTheDocument();

    await user.type(within(filters).getByLabelText('Game'), 'EA FC');
    await waitFor(() => expect(history.at(-1)).toBe('/?game=EA+FC&console=Xbox'));
    await user.type(within(filters).getByLabelText('Max stake ($)'), '25');
    await waitFor(() => expect(history.at(-1)).toBe('/?game=EA+FC&console=Xbox&maxAmount=25'));
    await waitFor(() =>
      expect(requests(fetchMock, '/api/challenges')).toContainEqual({
        game: 'EA FC',
        console: 'Xbox',
        maxAmount: '25',
        status: 'open',
        limit: '24',
      }),
    );
    // Replaced, not pushed: typing does not fill the back button.
    expect(history).toHaveLength(1);

    await user.click(within(filters).getByRole('button', { name: 'Clear filters' }));
    expect(history.at(-1)).toBe('/');
    expect(within(filters).getByLabelText('Game')).toHaveValue('');
    expect(within(filters).getByLabelText('Game')).toHaveFocus();
    expect(within(filters).queryByRole('button', { name: 'Clear filters' })).toBeNull();
  });

  it('explains an upside-down stake range and keeps it out of the address', async () => {
    serve();
    const user = userEvent.setup();
    const { history } = renderApp('/?minAmount=30');
    const filters = await screen.findByRole('search', { name: 'Challenges' });

    const max = within(filters).getByLabelText('Max stake ($)');
    await user.type(max, '20');
    expect(
      await screen.findByText('Maximum amount must be at least the minimum amount'),
    ).toBeInTheDocument();
    expect(max).toHaveAttribute('aria-invalid', 'true');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(history.at(-1)).toBe('/?minAmount=30');
  });

  it('suggests the games players name', async () => {
    serve();
    renderApp('/');
    const game = await screen.findByLabelText('Game');
    const list = document.getElementById(game.getAttribute('list') ?? '');
    await waitFor(() =>
      expect([...(list?.querySelectorAll('option') ?? [])].map((option) => option.value)).toEqual([
        'EA Sports FC 26',
        'Fortnite',
      ]),
    );
  });
});
