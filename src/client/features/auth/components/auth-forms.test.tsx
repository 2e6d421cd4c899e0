import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { AUTH_MESSAGES } from '#shared/contracts/auth.ts';
import { LOCATION_MESSAGES } from '#shared/us-states.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast, visibleToasts } from '#client/test-utils/toasts.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.doUnmock('#shared/contracts/auth.ts');
});

/** An anonymous visitor; `onPost` answers the form's POST. */
function anonymousWith(onPost: FetchHandler) {
  return stubFetch((request) =>
    request.method === 'POST'
      ? onPost(request)
      : jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Not signed in' }),
  );
}

async function openRegisterTab() {
  const user = userEvent.setup();
  renderApp('/auth');
  await user.click(await screen.findByRole('tab', { name: 'Register' }));
  return user;
}

describe('register form', () => {
  it('shows the SPEC messages under each bad field and sends nothing', async () => {
    const fetchMock = anonymousWith(() => jsonResponse(500, {}));
    const user = await openRegisterTab();

    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.type(screen.getByLabelText('Phone Number'), 'call me now');
    await user.type(screen.getByLabelText('Email (optional)'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await screen.findByLabelText('Username')).toHaveAccessibleDescription(
      expect.stringContaining(AUTH_MESSAGES.usernameMin),
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining(AUTH_MESSAGES.passwordMin),
    );
    expect(screen.getByLabelText('Phone Number')).toHaveAccessibleDescription(
      AUTH_MESSAGES.phonePattern,
    );
    expect(screen.getByLabelText('Email (optional)')).toHaveAccessibleDescription(
      AUTH_MESSAGES.email,
    );
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveAccessibleDescription(
      expect.stringContaining(LOCATION_MESSAGES.stateRequired),
    );
    const ageBox = screen.getByRole('checkbox', {
      name: 'I confirm I am 21 or older and in a permitted location',
    });
    expect(ageBox).toHaveAccessibleDescription(AUTH_MESSAGES.age);
    expect(ageBox).toBeInvalid();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/register', expect.anything());
  });

  it('words short phone numbers and bad usernames as the SPEC does', async () => {
    anonymousWith(() => jsonResponse(500, {}));
    const user = await openRegisterTab();

    await user.type(screen.getByLabelText('Username'), 'bad name!');
    await user.type(screen.getByLabelText('Phone Number'), '12345');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await screen.findByText(AUTH_MESSAGES.usernamePattern)).toBeInTheDocument();
    expect(screen.getByText(AUTH_MESSAGES.phoneMin)).toBeInTheDocument();
  });

  it('registers with the cleaned-up fields and lands on the home page', async () => {
    const fetchMock = anonymousWith(({ url }) =>
      url === '/api/register'
        ? jsonResponse(
            201,
            makeUser({ username: 'new_player', createdAt: new Date().toISOString() }),
          )
        : jsonResponse(404, {}),
    );
    const user = await openRegisterTab();

    await user.type(screen.getByLabelText('Username'), 'new_player');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.type(screen.getByLabelText('Phone Number'), '+1 555-123-4567');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'New York');
    await user.click(screen.getByRole('checkbox', { name: /21 or older/ }));
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    expect(await screen.findByText('WELCOME, NEW_PLAYER')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/register',
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({
          username: 'new_player',
          password: 'secret123',
          phoneNumber: '+1 555-123-4567',
          isOver18: true,
          state: 'NY',
        }),
      }),
    );
  });

  it('shows the server field errors under the fields and a Registration failed toast', async () => {
    anonymousWith(() =>
      jsonResponse(400, {
        code: 'USERNAME_TAKEN',
        message: AUTH_MESSAGES.usernameTaken,
        fields: { username: AUTH_MESSAGES.usernameTaken },
      }),
    );
    const user = await openRegisterTab();

    await user.type(screen.getByLabelText('Username'), 'taken_name');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.type(screen.getByLabelText('Phone Number'), '5551234567');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Ohio');
    await user.click(screen.getByRole('checkbox', { name: /21 or older/ }));
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    await waitFor(() =>
      expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(
        expect.stringContaining(AUTH_MESSAGES.usernameTaken),
      ),
    );
    const toast = await findToast('Registration failed');
    expect(toast).toHaveTextContent(`400: ${AUTH_MESSAGES.usernameTaken}`);
  });

  it('closes the Registration failed toast when the next try succeeds', async () => {
    let attempts = 0;
    anonymousWith(({ url }) => {
      if (url !== '/api/register') return jsonResponse(404, {});
      attempts += 1;
      return attempts === 1
        ? jsonResponse(400, {
            code: 'USERNAME_TAKEN',
            message: AUTH_MESSAGES.usernameTaken,
            fields: { username: AUTH_MESSAGES.usernameTaken },
          })
        : jsonResponse(
            201,
            makeUser({ username: 'free_name', createdAt: new Date().toISOString() }),
          );
    });
    const user = await openRegisterTab();
    await user.type(screen.getByLabelText('Username'), 'taken_name');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.type(screen.getByLabelText('Phone Number'), '5551234567');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Ohio');
    await user.click(screen.getByRole('checkbox', { name: /21 or older/ }));
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));
    await findToast('Registration failed');

    await user.clear(screen.getByLabelText('Username'));
    await user.type(screen.getByLabelText('Username'), 'free_name');
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));
    expect(await screen.findByText('WELCOME, FREE_NAME')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        visibleToasts().filter((item) => item.textContent?.includes('Registration failed')),
      ).toEqual([]),
    );
  });

  it('shows a refused state under the State field (docs/responsible-play.md)', async () => {
    const refusal = LOCATION_MESSAGES.notAvailableIn('Tennessee');
    const fetchMock = anonymousWith(() =>
      jsonResponse(403, {
        code: 'LOCATION_NOT_ALLOWED',
        message: refusal,
        fields: { state: refusal },
      }),
    );
    const user = await openRegisterTab();

    await user.type(screen.getByLabelText('Username'), 'volunteer');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.type(screen.getByLabelText('Phone Number'), '5551234567');
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'Tennessee');
    await user.click(screen.getByRole('checkbox', { name: /21 or older/ }));
    await user.click(screen.getByRole('button', { name: 'CREATE ACCOUNT' }));

    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'State' })).toHaveAccessibleDescription(
        expect.stringContaining(refusal),
      ),
    );
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/register',
      expect.objectContaining({ body: expect.stringContaining('"state":"TN"') }),
    );
  });
});

describe('login form', () => {
  it('requires both fields', async () => {
    const fetchMock = anonymousWith(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderApp('/auth');

    await user.click(await screen.findByRole('button', { name: 'LOGIN' }));

    expect(await screen.findByText(AUTH_MESSAGES.usernameRequired)).toBeInTheDocument();
    expect(screen.getByText(AUTH_MESSAGES.passwordRequired)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/login', expect.anything());
  });

  it('toasts Login failed with the status and server message', async () => {
    anonymousWith(() =>
      jsonResponse(401, { code: 'INVALID_CREDENTIALS', message: AUTH_MESSAGES.invalidCredentials }),
    );
    const user = userEvent.setup();
    renderApp('/auth');

    await user.type(await screen.findByLabelText('Username'), 'ace_player');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'LOGIN' }));

    const toast = await findToast('Login failed');
    expect(toast).toHaveTextContent('401: Invalid username or password');
  });

  it('signs in and goes home', async () => {
    anonymousWith(() => jsonResponse(200, makeUser()));
    const user = userEvent.setup();
    const { history } = renderApp('/auth');

    await user.type(await screen.findByLabelText('Username'), 'ace_player');
    await user.type(screen.getByLabelText('Password'), 'right-password');
    await user.click(screen.getByRole('button', { name: 'LOGIN' }));

    expect(await screen.findByRole('heading', { name: 'SKILL CHALLENGES' })).toBeInTheDocument();
    expect(history.at(-1)).toBe('/');
  });
});

describe('the forms’ contract', () => {
  it('is loaded when a form is first focused, not to show the page', async () => {
    const loaded = vi.fn();
    vi.doMock('#shared/contracts/auth.ts', async (importOriginal) => {
      loaded();
      return importOriginal();
    });
    anonymousWith(() => jsonResponse(500, {}));
    const user = userEvent.setup();
    renderApp('/auth');

    const username = await screen.findByLabelText('Username');
    expect(loaded).not.toHaveBeenCalled();
    await user.click(username);

    await waitFor(() => expect(loaded).toHaveBeenCalled());
  });
});
