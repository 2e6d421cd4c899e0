import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const INSTRUCTIONS = 'Enter the 6-digit code from your authenticator app, or a recovery code.';

/** An anonymous visitor whose password is right and whose account has two-factor sign-in on. */
function twoFactorAccount(onCode: FetchHandler) {
  return stubFetch((request) => {
    if (request.url === '/api/login') return jsonResponse(200, { twoFactorRequired: true });
    if (request.url === '/api/login/2fa') return onCode(request);
    return jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Not signed in' });
  });
}

async function passPasswordStep() {
  const user = userEvent.setup();
  const view = renderApp('/auth');
  await user.type(await screen.findByLabelText('Username'), 'ace_player');
  await user.type(screen.getByLabelText('Password'), 'right-password');
  await user.click(screen.getByRole('button', { name: 'LOGIN' }));
  const code = await screen.findByLabelText('Authentication code');
  return { user, code, ...view };
}

describe('the second step of a two-factor sign-in', () => {
  it('asks for the code after the password, takes it by keyboard and signs in', async () => {
    const fetchMock = twoFactorAccount(() => jsonResponse(200, makeUser()));
    const { user, code, history } = await passPasswordStep();

    expect(code).toHaveFocus();
    expect(code).toHaveAccessibleDescription(INSTRUCTIONS);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();

    await user.type(code, '123456{Enter}');

    expect(await screen.findByRole('heading', { name: 'SKILL CHALLENGES' })).toBeInTheDocument();
    expect(history.at(-1)).toBe('/');
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/login/2fa');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ code: '123456' });
  });

  it('shows a wrong code under the field, and keeps the step', async () => {
    twoFactorAccount(() =>
      jsonResponse(401, {
        code: 'INVALID_CODE',
        message: SECURITY_MESSAGES.invalidCode,
        fields: { code: SECURITY_MESSAGES.invalidCode },
      }),
    );
    const { user, code } = await passPasswordStep();

    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'VERIFY' }));

    expect(await screen.findByText(SECURITY_MESSAGES.invalidCode)).toBeInTheDocument();
    expect(code).toHaveAccessibleDescription(
      expect.stringContaining(SECURITY_MESSAGES.invalidCode),
    );
    expect(code).toHaveAttribute('aria-invalid', 'true');
  });

  it('switches to a recovery code, with a keyboard that has letters', async () => {
    const fetchMock = twoFactorAccount(() => jsonResponse(200, makeUser()));
    const { user } = await passPasswordStep();

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const recovery = screen.getByLabelText('Recovery code');
    expect(recovery).toHaveFocus();
    expect(recovery).toHaveAttribute('inputmode', 'text');
    await user.type(recovery, 'abcde-fghij{Enter}');

    expect(await screen.findByRole('heading', { name: 'SKILL CHALLENGES' })).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/login/2fa');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ code: 'abcde-fghij' });
  });

  it('goes back to the password when the sign-in has expired, saying why', async () => {
    twoFactorAccount(() =>
      jsonResponse(401, { code: 'INVALID_CODE', message: SECURITY_MESSAGES.signInExpired }),
    );
    const { user, code } = await passPasswordStep();

    await user.type(code, '123456{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(SECURITY_MESSAGES.signInExpired);
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
  });

  it('goes back to the password on BACK', async () => {
    twoFactorAccount(() => jsonResponse(500, {}));
    const { user } = await passPasswordStep();
    await user.click(screen.getByRole('button', { name: 'BACK' }));
    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
