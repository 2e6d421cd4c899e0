import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { LOCATION_MESSAGES } from '#shared/us-states.ts';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  makeUser,
  renderInApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { LocationCard } from './location-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The signed-in user and the profile config; `onPatch` answers PATCH /api/user. */
function serve(initial: PublicUser, onPatch?: FetchHandler) {
  let user = initial;
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user' && request.method === 'GET') return jsonResponse(200, user);
    if (path === '/api/user' && request.method === 'PATCH') {
      if (onPatch) return onPatch(request);
      user = { ...user, state: (request.body as { state: string }).state };
      return jsonResponse(200, user);
    }
    if (path === '/api/profile/config') {
      return jsonResponse(200, { freeSiteUrl: null, excludedStates: ['AZ', 'TN'] });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

/** The card fed from the cached user, as the profile page feeds it. */
function CardOfSignedInUser() {
  const { user } = useUser();
  return user ? <LocationCard user={user} /> : null;
}

async function renderCard() {
  renderInApp(<CardOfSignedInUser />, '/profile');
  return screen.findByRole('region', { name: 'Location' });
}

describe('Location', () => {
  it('shows the declared state and saves a new one with PATCH /api/user', async () => {
    const fetchMock = serve(makeUser({ state: 'NY' }));
    const user = userEvent.setup();
    const card = await renderCard();
    expect(card).toHaveTextContent('You play from New York.');
    const select = within(card).getByRole('combobox', { name: 'State' });
    expect(select).toHaveValue('NY');

    await user.selectOptions(select, 'Ohio');
    await user.click(within(card).getByRole('button', { name: 'SAVE STATE' }));

    expect(await findToast('STATE UPDATED')).toHaveTextContent('Your state is now Ohio.');
    await waitFor(() => expect(card).toHaveTextContent('You play from Ohio.'));
    const patches = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]?.[1]?.body).toBe(JSON.stringify({ state: 'OH' }));
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
  });

  it('says what stops, and that withdrawals do not, in an excluded state', async () => {
    serve(makeUser({ state: 'AZ' }));
    const card = await renderCard();
    const notice = await within(card).findByRole('status');
    expect(notice).toHaveTextContent(
      'Cash competitions are not available in Arizona. Deposits, new challenges and acceptances are paused; you can still withdraw your available money.',
    );
  });

  it('asks for a state before sending anything, and shows the server words under the field', async () => {
    const fetchMock = serve(makeUser({ state: null }), () =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: 'Invalid input',
        fields: { state: LOCATION_MESSAGES.stateInvalid },
      }),
    );
    const user = userEvent.setup();
    const card = await renderCard();
    expect(card).toHaveTextContent('Tell us which US state you play from.');
    const select = within(card).getByRole('combobox', { name: 'State' });

    await user.click(within(card).getByRole('button', { name: 'SAVE STATE' }));
    expect(select).toHaveAccessibleDescription(LOCATION_MESSAGES.stateRequired);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);

    await user.selectOptions(select, 'Texas');
    await user.click(within(card).getByRole('button', { name: 'SAVE STATE' }));
    await waitFor(() => expect(select).toHaveAccessibleDescription(LOCATION_MESSAGES.stateInvalid));
  });
});
