import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { makeChallenge, makeCounts, parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function signedIn(onCreate: FetchHandler = () => jsonResponse(201, makeChallenge({ id: 7 }))) {
  return stubFetch((request) => {
    const { path, query } = parseRequestUrl(request.url);
    if (path === '/api/players' && query.search?.toLowerCase().startsWith('ar')) {
      return jsonResponse(200, { usernames: ['arbiter', 'arbiter_two'] });
    }
    if (path === '/api/user') return jsonResponse(200, makeUser());
    if (path === '/api/challenges/counts') return jsonResponse(200, makeCounts());
    if (request.method === 'POST' && path === '/api/challenges') return onCreate(request);
    if (path === '/api/challenges') return jsonResponse(200, []);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

async function openCreateDialog() {
  const user = userEvent.setup();
  renderApp('/');
  const [bannerButton] = await screen.findAllByRole('button', { name: 'Create Challenge' });
  if (!bannerButton) throw new Error('no Create Challenge button');
  await user.click(bannerButton);
  const dialog = await screen.findByRole('dialog', { name: 'Create Challenge' });
  // The form loads with the dialog's first opening.
  await within(dialog).findByLabelText('Amount ($)');
  return { user, dialog };
}

describe('create challenge dialog', () => {
  it('states the money as the amount is typed, and a stake over the balance with the way to deposit', async () => {
    signedIn();
    const { user, dialog } = await openCreateDialog();
    const amount = within(dialog).getByLabelText('Amount ($)');
    await user.type(amount, '10');
    expect(
      within(dialog).getByText('You stake $10.00. Win: $19.00 after the 5% fee.'),
    ).toBeVisible();
    expect(within(dialog).queryByRole('link', { name: 'DEPOSIT FUNDS' })).not.toBeInTheDocument();

    const available = makeUser().available;
    await user.clear(amount);
    await user.type(amount, String(Math.floor(available) + 1));
    expect(
      within(dialog).getByText(`You have $${available.toFixed(2)} available.`, { exact: false }),
    ).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'DEPOSIT FUNDS' })).toHaveAttribute(
      'href',
      '/profile',
    );
  });

  it('validates with the shared rules before sending anything', async () => {
    const fetchMock = signedIn();
    const { user, dialog } = await openCreateDialog();

    await user.type(within(dialog).getByLabelText('Amount ($)'), '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'CREATE CHALLENGE' }));

    expect(await within(dialog).findByText(CHALLENGE_MESSAGES.gameRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Amount ($)')).toHaveAccessibleDescription(
      expect.stringContaining(CHALLENGE_MESSAGES.amountWhole),
    );
    expect(within(dialog).getByLabelText('Console')).toHaveAccessibleDescription(
      CHALLENGE_MESSAGES.console,
    );
    expect(within(dialog).getByLabelText('Gamer Tag')).toHaveAccessibleDescription(
      CHALLENGE_MESSAGES.gamerTagRequired,
    );

    await user.clear(within(dialog).getByLabelText('Amount ($)'));
    await user.type(within(dialog).getByLabelText('Amount ($)'), '20000');
    expect(
      await within(dialog).findByText(CHALLENGE_MESSAGES.amountMax, { exact: false }),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/challenges', expect.anything());
  });

  it('posts the challenge with the player phone prefilled, closes and confirms with a toast', async () => {
    const fetchMock = signedIn();
    const { user, dialog } = await openCreateDialog();

    expect(within(dialog).getByLabelText('Phone Number')).toHaveValue('+1 555 123 4567');
    await user.type(within(dialog).getByLabelText('Game'), 'EA FC 25');
    await user.type(within(dialog).getByLabelText('Amount ($)'), '25');
    await user.selectOptions(within(dialog).getByLabelText('Console'), 'PlayStation');
    await user.type(within(dialog).getByLabelText('Gamer Tag'), 'AceOfPitch');
    await user.type(within(dialog).getByLabelText('Mode (optional)'), 'Best of 3');
    await user.click(within(dialog).getByRole('button', { name: 'CREATE CHALLENGE' }));

    const toast = await findToast('Challenge created!');
    expect(toast).toHaveTextContent('Your challenge is now live.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/challenges',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({
          game: 'EA FC 25',
          amount: 25,
          gamerTag: 'AceOfPitch',
          phoneNumber: '+1 555 123 4567',
          console: 'PlayStation',
          mode: 'Best of 3',
        }),
      }),
    );
  });

  it('sends a direct challenge to the named opponent, and shows a refusal under the field', async () => {
    const fetchMock = signedIn(() =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: CHALLENGE_MESSAGES.opponentUnknown,
        fields: { opponent: CHALLENGE_MESSAGES.opponentUnknown },
      }),
    );
    const { user, dialog } = await openCreateDialog();

    await user.type(within(dialog).getByLabelText('Game'), 'Halo');
    await user.type(within(dialog).getByLabelText('Amount ($)'), '30');
    await user.selectOptions(within(dialog).getByLabelText('Console'), 'Xbox');
    await user.type(within(dialog).getByLabelText('Gamer Tag'), 'Chief');
    await user.type(within(dialog).getByLabelText('Opponent (optional)'), ' arbiter ');
    await user.click(within(dialog).getByRole('button', { name: 'CREATE CHALLENGE' }));

    await waitFor(() =>
      expect(within(dialog).getByLabelText('Opponent (optional)')).toHaveAccessibleDescription(
        expect.stringContaining(CHALLENGE_MESSAGES.opponentUnknown),
      ),
    );
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/challenges') ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({ opponent: 'arbiter' });
    // The field suggested the players whose names start with what was typed.
    const field = within(dialog).getByLabelText('Opponent (optional)');
    const list = document.getElementById(field.getAttribute('list') ?? '');
    expect([...(list?.querySelectorAll('option') ?? [])].map((option) => option.value)).toEqual([
      'arbiter',
      'arbiter_two',
    ]);
  });

  it('shows the server message in a destructive toast and keeps the dialog open', async () => {
    signedIn(() =>
      jsonResponse(400, { code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance' }),
    );
    const { user, dialog } = await openCreateDialog();

    await user.type(within(dialog).getByLabelText('Game'), 'Halo');
    await user.type(within(dialog).getByLabelText('Amount ($)'), '500');
    await user.selectOptions(within(dialog).getByLabelText('Console'), 'Xbox');
    await user.type(within(dialog).getByLabelText('Gamer Tag'), 'Chief');
    await user.click(within(dialog).getByRole('button', { name: 'CREATE CHALLENGE' }));

    const toast = await findToast('Challenge not created');
    expect(toast).toHaveTextContent('Insufficient balance');
    expect(screen.getByRole('dialog', { name: 'Create Challenge' })).toBeInTheDocument();
  });
});
