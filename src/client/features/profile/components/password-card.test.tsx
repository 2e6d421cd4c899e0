import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { sessionsQueryKey } from '#client/features/profile/api/get-sessions.ts';
import { PASSWORD_MISMATCH } from '#client/lib/password-forms.ts';
import {
  jsonResponse,
  renderInApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { PasswordCard } from './password-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serve(onChange: FetchHandler) {
  return stubFetch((request) =>
    request.method === 'POST' && request.url === '/api/user/password'
      ? onChange(request)
      : jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' }),
  );
}

function passwordPosts(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls
    .filter(([input]) => String(input) === '/api/user/password')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

function renderCard() {
  const { queryClient } = renderInApp(<PasswordCard />, '/profile');
  return { card: screen.getByRole('region', { name: 'Change password' }), queryClient };
}

async function fillAndSubmit(card: HTMLElement, current: string, next: string, confirm = next) {
  const user = userEvent.setup();
  await user.type(within(card).getByLabelText('Current password'), current);
  await user.type(within(card).getByLabelText('New password'), next);
  await user.type(within(card).getByLabelText('Confirm new password'), confirm);
  await user.click(within(card).getByRole('button', { name: 'CHANGE PASSWORD' }));
}

describe('Change password', () => {
  it('sends the current and new password, toasts the server’s words and clears the form', async () => {
    const fetchMock = serve(() =>
      jsonResponse(200, { message: SECURITY_MESSAGES.passwordChanged }),
    );
    const { card, queryClient } = renderCard();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await fillAndSubmit(card, 'old-secret', 'new-secret');

    expect(await findToast('PASSWORD CHANGED')).toHaveTextContent(
      SECURITY_MESSAGES.passwordChanged,
    );
    expect(passwordPosts(fetchMock)).toEqual([
      { currentPassword: 'old-secret', newPassword: 'new-secret' },
    ]);
    await waitFor(() => expect(within(card).getByLabelText('Current password')).toHaveValue(''));
    expect(within(card).getByLabelText('New password')).toHaveValue('');
    expect(within(card).getByLabelText('Confirm new password')).toHaveValue('');
    // The other sessions ended: the Devices card reads its list again.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: sessionsQueryKey });
  });

  it('shows a wrong current password under its field and keeps what was typed', async () => {
    serve(() =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: SECURITY_MESSAGES.currentPasswordWrong,
        fields: { currentPassword: SECURITY_MESSAGES.currentPasswordWrong },
      }),
    );
    const { card } = renderCard();
    await fillAndSubmit(card, 'wrong-secret', 'new-secret');

    await waitFor(() =>
      expect(within(card).getByLabelText('Current password')).toHaveAccessibleDescription(
        SECURITY_MESSAGES.currentPasswordWrong,
      ),
    );
    expect(within(card).getByLabelText('New password')).toHaveValue('new-secret');
    expect(screen.queryByText('PASSWORD CHANGED')).not.toBeInTheDocument();
  });

  it('refuses a repeat that does not match, or a short new password, without sending', async () => {
    const fetchMock = serve(() => jsonResponse(500, {}));
    const { card } = renderCard();
    await fillAndSubmit(card, 'old-secret', 'short', 'shorts');

    expect(await within(card).findByText(PASSWORD_MISMATCH, { selector: 'p' })).toBeInTheDocument();
    expect(within(card).getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      PASSWORD_MISMATCH,
    );
    expect(within(card).getByLabelText('New password')).toHaveAccessibleDescription(
      AUTH_MESSAGES.passwordMin,
    );
    expect(passwordPosts(fetchMock)).toEqual([]);
  });

  it('refuses a new password that is the current one, without sending', async () => {
    const fetchMock = serve(() => jsonResponse(500, {}));
    const { card } = renderCard();
    await fillAndSubmit(card, 'same-secret', 'same-secret');

    await waitFor(() =>
      expect(within(card).getByLabelText('New password')).toHaveAccessibleDescription(
        SECURITY_MESSAGES.samePassword,
      ),
    );
    expect(passwordPosts(fetchMock)).toEqual([]);
  });

  it('toasts a throttled attempt in the server’s words', async () => {
    serve(() =>
      jsonResponse(429, { code: 'RATE_LIMITED', message: 'Too many attempts. Try again later.' }),
    );
    await fillAndSubmit(renderCard().card, 'old-secret', 'new-secret');

    const toast = await findToast('PASSWORD NOT CHANGED');
    expect(toast).toHaveTextContent('Too many attempts. Try again later.');
  });
});
