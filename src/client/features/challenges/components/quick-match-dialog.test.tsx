import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import {
  makeAcceptedChallenge,
  makeChallenge,
  parseRequestUrl,
} from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderInApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { CreateChallengeDialog } from './create-challenge-dialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serve(answer: { challenge: unknown; matched: boolean }) {
  return stubFetch(({ method, url }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, makeUser());
    if (method === 'POST' && path === '/api/quick-match') return jsonResponse(200, answer);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

async function findAMatch() {
  const user = userEvent.setup();
  const result = renderInApp(
    <CreateChallengeDialog
      open
      onOpenChange={() => undefined}
      onCloseAutoFocus={() => undefined}
      defaultPhoneNumber="+1 555 123 4567"
      intent="quick-match"
    />,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Quick Match' });
  await user.type(await within(dialog).findByLabelText('Game'), 'Tekken 8');
  await user.type(within(dialog).getByLabelText('Amount ($)'), '15');
  await user.selectOptions(within(dialog).getByLabelText('Console'), 'PlayStation');
  await user.type(within(dialog).getByLabelText('Gamer Tag'), 'Kazuya');
  // Terms only: the optional fields of a creation are not asked.
  expect(within(dialog).queryByLabelText('Opponent (optional)')).toBeNull();
  expect(within(dialog).queryByLabelText('Mode (optional)')).toBeNull();
  await user.click(within(dialog).getByRole('button', { name: 'FIND A MATCH' }));
  return result;
}

describe('quick match dialog', () => {
  it('sends the terms and lands on the match it found', async () => {
    const fetch = serve({ challenge: makeAcceptedChallenge({ id: 42 }), matched: true });
    const { history } = await findAMatch();

    expect(await findToast('Match found!')).toHaveTextContent('You face rival for $25.00.');
    await waitFor(() => expect(history.at(-1)).toBe('/challenges/42'));
    const [, init] = fetch.mock.calls.find(([url]) => url === '/api/quick-match') ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({
      game: 'Tekken 8',
      amount: 15,
      console: 'PlayStation',
      gamerTag: 'Kazuya',
      phoneNumber: '+1 555 123 4567',
    });
  });

  it('says the challenge it opened waits for the next player', async () => {
    serve({ challenge: makeChallenge({ id: 43, creatorId: 1 }), matched: false });
    const { history } = await findAMatch();
    expect(await findToast('Waiting for an opponent')).toBeVisible();
    await waitFor(() => expect(history.at(-1)).toBe('/challenges/43'));
  });
});
