import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { makeChallenge, makeCounts, parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SUSPENDED = makeUser({
  suspension: { reason: 'Match fixing under review', until: '2031-03-02T12:00:00.000Z' },
});
const MESSAGE = 'Your account is suspended until 2031-03-02 12:00 UTC: Match fixing under review';

/** The lobby with one open challenge of `rival`, for a player the server says is `user()`. */
function serve(user: () => PublicUser) {
  return stubFetch(({ method, url }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, user());
    if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts({ available: 1 }));
    if (path === '/api/challenges') return jsonResponse(200, [makeChallenge()]);
    if (method === 'POST' && path === '/api/challenges/11/accept') {
      return jsonResponse(403, { code: 'ACCOUNT_SUSPENDED', message: MESSAGE });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

describe('the suspension banner', () => {
  it('tells a suspended player why, until when, and what they can still do', async () => {
    serve(() => SUSPENDED);
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Account suspended' });
    expect(banner).toHaveTextContent('ACCOUNT SUSPENDED');
    expect(banner).toHaveTextContent(MESSAGE);
    expect(banner).toHaveTextContent('withdraw your available balance');
  });

  it('is absent for a player in good standing', async () => {
    serve(() => makeUser());
    renderApp('/');
    await screen.findByTitle('$ Blue Coins');
    expect(screen.queryByRole('region', { name: 'Account suspended' })).toBeNull();
  });

  it('appears with the refusal of an acceptance when the suspension is newer than the page', async () => {
    let current = makeUser();
    serve(() => current);
    const user = userEvent.setup();
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'EA FC 25' });

    current = SUSPENDED;
    await user.click(within(card).getByRole('button', { name: 'ACCEPT CHALLENGE' }));
    await user.click(await screen.findByRole('button', { name: /^YES, STAKE/ }));
    expect(await findToast('Could not accept challenge')).toHaveTextContent(`403: ${MESSAGE}`);
    expect(await screen.findByRole('region', { name: 'Account suspended' })).toHaveTextContent(
      MESSAGE,
    );
  });
});

describe('the break banner', () => {
  it('appears with a PLAY_PAUSED refusal when the break was taken in another tab', async () => {
    let current = makeUser();
    const onBreak = makeUser({
      playBreak: { kind: 'time_out', until: '2031-03-02T12:00:00.000Z' },
    });
    stubFetch(({ method, url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, current);
      if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts({ available: 1 }));
      if (path === '/api/challenges') return jsonResponse(200, [makeChallenge()]);
      if (method === 'POST' && path === '/api/challenges/11/accept') {
        return jsonResponse(403, { code: 'PLAY_PAUSED', message: 'paused' });
      }
      return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
    });
    const user = userEvent.setup();
    renderApp('/');
    const card = await screen.findByRole('article', { name: 'EA FC 25' });

    current = onBreak;
    await user.click(within(card).getByRole('button', { name: 'ACCEPT CHALLENGE' }));
    await user.click(await screen.findByRole('button', { name: /^YES, STAKE/ }));
    expect(await screen.findByRole('region', { name: 'Time-out' })).toHaveTextContent(
      'You are taking a time-out until 2031-03-02 12:00 UTC',
    );
  });

  it('goes when the break ends, without a reload', async () => {
    // A time-out ending in a moment; the server says it is over once it has.
    let current = makeUser({
      playBreak: { kind: 'time_out', until: new Date(Date.now() + 200).toISOString() },
    });
    const reads = serve(() => current);
    renderApp('/');
    await screen.findByRole('region', { name: 'Time-out' });
    const readsBefore = reads.mock.calls.length;
    current = makeUser();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Time-out' })).toBeNull(), {
      timeout: 4000,
    });
    expect(reads.mock.calls.length).toBeGreaterThan(readsBefore);
  });
});

describe('the money lock banner', () => {
  const LOCK = {
    reason: 'a card payment of $40.00 was disputed',
    since: '2026-11-28T12:00:00.000Z',
  };

  it('says why the money is locked, what the player owes and how to repay', async () => {
    serve(() => makeUser({ moneyLock: LOCK, debt: 12.5 }));
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Money locked' });
    expect(banner).toHaveTextContent('MONEY LOCKED');
    expect(banner).toHaveTextContent(
      "Your account's money is locked because a card payment of $40.00 was disputed",
    );
    expect(banner).toHaveTextContent('You owe $12.50.');
    expect(banner).toHaveTextContent('a crypto deposit repays it');
  });

  it('says so when nothing is owed, and is absent without a lock', async () => {
    let current = makeUser({ moneyLock: LOCK, debt: 0 });
    serve(() => current);
    const view = renderApp('/');
    expect(await screen.findByRole('region', { name: 'Money locked' })).toHaveTextContent(
      'You owe nothing.',
    );
    view.unmount();
    current = makeUser();
    renderApp('/');
    await screen.findByTitle('$ Blue Coins');
    expect(screen.queryByRole('region', { name: 'Money locked' })).toBeNull();
  });
});
