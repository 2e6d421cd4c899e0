import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { TournamentSummary } from '#shared/contracts/tournaments.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const UPCOMING: TournamentSummary = {
  id: 4,
  game: 'Tekken 8',
  console: 'PlayStation',
  entryFee: 5,
  size: 8,
  startsAt: '2026-12-01T18:00:00.000Z',
  status: 'open',
  allowByes: false,
  prizeSplit: [70, 30],
  entrants: 2,
  placesLeft: 6,
  prizePool: 9.5,
  joined: false,
};

function serve(isAdmin: boolean) {
  return stubFetch(({ url }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, makeUser({ isAdmin }));
    if (path === '/api/tournaments') return jsonResponse(200, [UPCOMING]);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

describe('tournaments page', () => {
  it('shows an admin the creation form and the lists together, so the form arriving moves nothing', async () => {
    serve(true);
    renderApp('/tournaments');
    const link = await screen.findByRole('link', { name: 'Tekken 8' });
    // Had the lists come first, the form (its own chunk) would appear above them later and push
    // down whatever the keyboard was on.
    expect(screen.getByRole('form', { name: 'Create a tournament' })).toBeInTheDocument();
    expect(
      screen.getByRole('form', { name: 'Create a tournament' }).compareDocumentPosition(link) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('shows a player the lists without the form', async () => {
    serve(false);
    renderApp('/tournaments');
    expect(await screen.findByRole('link', { name: 'Tekken 8' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Upcoming' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Create a tournament' })).not.toBeInTheDocument();
  });
});
