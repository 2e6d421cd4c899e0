import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { SECOND_STEP_NOTE } from '#client/features/auth/lib/second-step.ts';
import { PASSWORD_MISMATCH } from '#client/lib/password-forms.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
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

/** A visitor with no session; `onPost` answers every POST. */
function anonymousWith(onPost: FetchHandler) {
  return stubFetch((request) => {
    if (request.method === 'POST') return onPost(request);
    if (parseRequestUrl(request.url).path === '/api/user') {
      return jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Not signed in' });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

function postsTo(fetchMock: ReturnType<typeof stubFetch>, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => String(input) === path && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

describe('the Forgot password? link', () => {
  it('is a link on the login tab, reached by keyboard, that opens /reset-password', async () => {
    anonymousWith(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    const { history } = renderApp('/auth');

    await user.click(await screen.findByLabelText('Password'));
    await user.tab();
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link).toHaveFocus();
    expect(link).toHaveAttribute('href', '/reset-password');
    await user.keyboard('{Enter}');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Reset your password' }),
    ).toBeInTheDocument();
    expect(history.at(-1)).toBe('/reset-password');
  });
});

describe('asking for a reset link', () => {
  it('sends the username and shows the server’s sentence in place of the form', async () => {
    const fetchMock = anonymousWith(() =>
      jsonResponse(202, { message: SECURITY_MESSAGES.resetRequested }),
    );
    const user = userEvent.setup();
    renderApp('/reset-password');

    await user.type(await screen.findByLabelText('Username'), '  ace_player ');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));

    const message = await screen.findByText(SECURITY_MESSAGES.resetRequested);
    expect(message.closest('[tabindex="-1"]')).toHaveFocus();
    expect(postsTo(fetchMock, '/api/password-reset')).toEqual([{ username: 'ace_player' }]);
    expect(screen.queryByRole('button', { name: 'SEND RESET LINK' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'BACK TO LOGIN' })).toHaveAttribute('href', '/auth');
  });

  it('asks for a username before sending anything', async () => {
    const fetchMock = anonymousWith(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderApp('/reset-password');

    await user.click(await screen.findByRole('button', { name: 'SEND RESET LINK' }));

    expect(await screen.findByLabelText('Username')).toHaveAccessibleDescription(
      AUTH_MESSAGES.usernameRequired,
    );
    expect(postsTo(fetchMock, '/api/password-reset')).toEqual([]);
  });

  it('says so when the requests are throttled, and keeps the form', async () => {
    anonymousWith(() =>
      jsonResponse(429, { code: 'RATE_LIMITED', message: 'Too many requests. Try again later.' }),
    );
    const user = userEvent.setup();
    renderApp('/reset-password');

    await user.type(await screen.findByLabelText('Username'), 'ace_player');
    await user.click(screen.getByRole('button', { name: 'SEND RESET LINK' }));

    expect(await findToast('RESET LINK NOT SENT')).toHaveTextContent(
      'Too many requests. Try again later.',
    );
    expect(screen.getByRole('button', { name: 'SEND RESET LINK' })).toBeEnabled();
  });

  it('is open to a signed-in player too, who is offered the way back to the profile', async () => {
    stubFetch(({ url }) =>
      parseRequestUrl(url).path === '/api/user'
        ? jsonResponse(200, makeUser())
        : jsonResponse(404, {}),
    );
    const { history } = renderApp('/reset-password');

    expect(await screen.findByRole('button', { name: 'SEND RESET LINK' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'BACK TO PROFILE' })).toHaveAttribute(
      'href',
      '/profile',
    );
    expect(history).toEqual(['/reset-password']);
  });
});

async function fillNewPassword(newPassword: string, confirmPassword = newPassword) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New password'), newPassword);
  await user.type(screen.getByLabelText('Confirm password'), confirmPassword);
  await user.click(screen.getByRole('button', { name: 'RESET PASSWORD' }));
  return user;
}

describe('choosing a new password from the mailed link', () => {
  it('signs the player in with the new password and lands on the lobby with a toast', async () => {
    const player = makeUser({ username: 'ace_player' });
    const fetchMock = anonymousWith(() => jsonResponse(200, player));
    const { history, queryClient } = renderApp('/reset-password?token=tok_123');

    await fillNewPassword('new-secret');

    expect(await screen.findByRole('heading', { name: 'SKILL CHALLENGES' })).toBeInTheDocument();
    expect(history.at(-1)).toBe('/');
    expect(queryClient.getQueryData(userQueryKey)).toEqual(player);
    expect(await findToast('PASSWORD RESET')).toHaveTextContent(SECURITY_MESSAGES.resetDone);
    expect(postsTo(fetchMock, '/api/password-reset/complete')).toEqual([
      { token: 'tok_123', newPassword: 'new-secret' },
    ]);
  });

  it('checks the SPEC’s password rules and the repeat before sending anything', async () => {
    const fetchMock = anonymousWith(() => jsonResponse(500, {}));
    renderApp('/reset-password?token=tok_123');

    await fillNewPassword('12345', '54321');

    expect(await screen.findByLabelText('New password')).toHaveAccessibleDescription(
      AUTH_MESSAGES.passwordMin,
    );
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
      PASSWORD_MISMATCH,
    );
    expect(postsTo(fetchMock, '/api/password-reset/complete')).toEqual([]);
  });

  it('shows an expired link’s message with a link to ask for a new one', async () => {
    anonymousWith(({ url }) =>
      url === '/api/password-reset/complete'
        ? jsonResponse(400, { code: 'INVALID_TOKEN', message: SECURITY_MESSAGES.invalidLink })
        : jsonResponse(202, { message: SECURITY_MESSAGES.resetRequested }),
    );
    const { history } = renderApp('/reset-password?token=expired');

    const user = await fillNewPassword('new-secret');

    expect(await screen.findByText(SECURITY_MESSAGES.invalidLink)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'ASK FOR A NEW LINK' }));

    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
    expect(history.at(-1)).toBe('/reset-password');
  });

  it('puts the server’s word on the new password under its field', async () => {
    anonymousWith(() =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: AUTH_MESSAGES.passwordMax,
        fields: { newPassword: AUTH_MESSAGES.passwordMax },
      }),
    );
    renderApp('/reset-password?token=tok_123');

    await fillNewPassword('new-secret');

    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        AUTH_MESSAGES.passwordMax,
      ),
    );
    expect(screen.getByRole('button', { name: 'RESET PASSWORD' })).toBeEnabled();
  });

  it('hands an account with two-factor sign-in over to the login tab, with a note', async () => {
    anonymousWith(() => jsonResponse(200, { twoFactorRequired: true }));
    const { history, queryClient } = renderApp('/reset-password?token=tok_123');

    await fillNewPassword('new-secret');

    expect(await screen.findByRole('tab', { name: 'Login' })).toBeInTheDocument();
    expect(history.at(-1)).toBe('/auth?step=code');
    // The login tab opens on its second step: the code, not the password again.
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(await findToast('PASSWORD RESET')).toHaveTextContent(SECOND_STEP_NOTE);
    expect(queryClient.getQueryData(userQueryKey)).toBeNull();
  });
});
