import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ChallengeView } from '#shared/contracts/challenges.ts';
import {
  makeAcceptedChallenge,
  makeChallenge,
  parseRequestUrl,
} from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serve(challenge: ChallengeView | Response, viewer = makeUser({ id: 1 })) {
  return stubFetch(({ url }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, viewer);
    if (path === '/api/challenges/11') {
      return challenge instanceof Response ? challenge : jsonResponse(200, challenge);
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

/** The value shown beside a label in one of the page's lists. */
function detail(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}

const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000).toISOString();
const anHourAgo = () => new Date(Date.now() - 60 * 60 * 1000).toISOString();

function completed(overrides: Partial<ChallengeView> = {}): ChallengeView {
  return makeAcceptedChallenge({
    status: 'completed',
    winnerId: 2,
    creatorScore: 4,
    acceptorScore: 2,
    deduction: 2.5,
    winnerScreenshot: 'https://i.imgur.com/final.png',
    submittedBy: 2,
    completedAt: anHourAgo(),
    disputableUntil: inAnHour(),
    ...overrides,
  });
}

describe('challenge detail page', () => {
  it('shows an open challenge as Available with its game, gamer tag, console and wager', async () => {
    serve(makeChallenge());
    renderApp('/challenges/11');

    expect(await screen.findByRole('heading', { level: 1, name: 'EA FC 25' })).toBeVisible();
    expect(detail('Status')).toBe('Available');
    expect(detail('Game')).toBe('EA FC 25');
    expect(detail('Gamer Tag')).toBe('RivalTag');
    expect(detail('Console')).toBe('PlayStation');
    expect(detail('Wager')).toBe('$25.00');
    expect(screen.getByRole('button', { name: 'ACCEPT CHALLENGE' })).toBeInTheDocument();
  });

  it('lets the invited player of a direct challenge accept or decline it', async () => {
    const direct = makeChallenge({ opponent: { id: 1, username: 'me' } });
    const fetch = stubFetch(({ method, url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, makeUser({ id: 1 }));
      if (method === 'POST' && path === '/api/challenges/11/decline') {
        return jsonResponse(200, { ...direct, status: 'cancelled', cancelCause: 'declined' });
      }
      if (path === '/api/challenges/11') return jsonResponse(200, direct);
      return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
    });
    const user = userEvent.setup();
    renderApp('/challenges/11');

    expect(await screen.findByText('RIVAL CHALLENGES YOU')).toBeVisible();
    expect(screen.getByRole('button', { name: 'ACCEPT CHALLENGE' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'DECLINE' }));
    await user.click(await screen.findByRole('button', { name: 'YES, DECLINE IT' }));
    expect(await findToast('Challenge declined')).toHaveTextContent('rival gets their stake back.');
    expect(
      fetch.mock.calls.some(
        ([input, init]) =>
          String(input).endsWith('/api/challenges/11/decline') && init?.method === 'POST',
      ),
    ).toBe(true);
  });

  it('tells the creator of a direct challenge who alone can take it', async () => {
    serve(
      makeChallenge({ creatorId: 1, opponent: { id: 3, username: 'friend' } }),
      makeUser({ id: 1 }),
    );
    renderApp('/challenges/11');
    expect(
      await screen.findByText(
        'Your stake is in escrow. Only friend can accept or decline; you can cancel until then.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'DECLINE' })).toBeNull();
  });

  it('gives the players of an accepted match the Submit Results dialog and the voice slot', async () => {
    serve(makeAcceptedChallenge());
    renderApp('/challenges/11');

    expect(await screen.findByRole('button', { name: 'SUBMIT RESULTS' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'VOICE CHAT' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mute' })).toBeDisabled();
    expect(detail('Status')).toBe('Accepted');
  });

  it('gives neither to someone watching an accepted match', async () => {
    serve(makeAcceptedChallenge(), makeUser({ id: 42, username: 'watcher' }));
    renderApp('/challenges/11');

    expect(await screen.findByText('MATCH IN PROGRESS')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'SUBMIT RESULTS' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'VOICE CHAT' })).not.toBeInTheDocument();
  });

  it('shows the results of a completed match: scores, winner, screenshot and fee', async () => {
    serve(completed());
    renderApp('/challenges/11');

    const results = await screen.findByRole('region', { name: 'Results' });
    expect(detail('Creator Score (rival)')).toBe('4');
    expect(detail('Acceptor Score (ace_player)')).toBe('2');
    expect(detail('Winner')).toBe('rival');
    expect(detail('Fee (5%)')).toBe('$2.50');
    expect(within(results).getByRole('link', { name: 'View screenshot' })).toHaveAttribute(
      'href',
      'https://i.imgur.com/final.png',
    );
  });

  it('never makes a typed non-https screenshot link clickable', async () => {
    serve(completed({ winnerScreenshot: 'javascript:alert(1)' }));
    renderApp('/challenges/11');

    const results = await screen.findByRole('region', { name: 'Results' });
    expect(within(results).queryByRole('link')).not.toBeInTheDocument();
    expect(results).toHaveTextContent('javascript:alert(1)');
  });

  it('offers a dispute to the other player within the window only', async () => {
    serve(completed());
    const first = renderApp('/challenges/11');
    expect(await screen.findByRole('button', { name: 'DISPUTE RESULT' })).toBeInTheDocument();
    first.unmount();

    serve(completed({ disputableUntil: anHourAgo() }));
    const late = renderApp('/challenges/11');
    await screen.findByRole('region', { name: 'Results' });
    expect(screen.queryByRole('button', { name: 'DISPUTE RESULT' })).not.toBeInTheDocument();
    late.unmount();

    serve(completed({ submittedBy: 1 }));
    renderApp('/challenges/11');
    await screen.findByRole('region', { name: 'Results' });
    expect(screen.queryByRole('button', { name: 'DISPUTE RESULT' })).not.toBeInTheDocument();
  });

  it('says an admin is reviewing a disputed result', async () => {
    serve(completed({ status: 'disputed', disputeReason: 'Opponent quit early' }));
    renderApp('/challenges/11');

    expect(await screen.findByText('UNDER ADMIN REVIEW')).toBeInTheDocument();
    expect(screen.getByText(/An admin is reviewing it/)).toBeInTheDocument();
    expect(screen.getByText('Opponent quit early')).toBeInTheDocument();
  });

  it("says 'Failed to fetch challenge' when the challenge cannot be loaded", async () => {
    serve(new Response('boom', { status: 500 }));
    renderApp('/challenges/11');

    expect(await screen.findByText('Failed to fetch challenge')).toBeInTheDocument();
  });

  it('says so when there is no such challenge', async () => {
    serve(jsonResponse(404, { code: 'NOT_FOUND', message: 'Challenge not found' }));
    renderApp('/challenges/11');

    expect(await screen.findByText('Challenge not found')).toBeInTheDocument();
  });
});
