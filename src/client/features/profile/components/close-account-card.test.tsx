import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ACCOUNT_CLOSE_MESSAGES } from '#shared/contracts/account-data.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';

// The pages are lazily loaded chunks; loading them once here keeps the first test's wait short.
beforeAll(async () => {
  await Promise.all([
    import('#client/app/routes/profile.tsx'),
    import('#client/app/routes/auth.tsx'),
  ]);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function serve(user: PublicUser, onClose: FetchHandler = () => jsonResponse(500, {})) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, user);
    if (request.method === 'POST' && path === '/api/me/close') return onClose(request);
    if (path === '/api/transactions') return jsonResponse(200, { items: [], nextBefore: null });
    if (path === '/api/user/sessions') return jsonResponse(200, []);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

async function openCloseDialog() {
  const user = userEvent.setup();
  const view = renderApp('/profile');
  const card = await screen.findByRole('region', { name: 'Close my account' });
  await user.click(within(card).getByRole('button', { name: 'CLOSE MY ACCOUNT' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Close your account?' });
  return { user, view, dialog };
}

describe('the profile: your data', () => {
  it('offers the whole account as a download', async () => {
    serve(makeUser());
    renderApp('/profile');
    const card = await screen.findByRole('region', { name: 'Your data' });
    const link = within(card).getByRole('link', { name: 'DOWNLOAD MY DATA' });
    expect(link).toHaveAttribute('href', '/api/me/export');
    expect(link).toHaveAttribute('download');
  });
});

describe('the profile: close my account', () => {
  it('asks for the password behind a confirmation that says what is lost, keeping the account by default', async () => {
    serve(makeUser({ balance: 12.5, underReview: 0 }));
    const { dialog } = await openCloseDialog();
    expect(dialog).toHaveTextContent('Closing your account is permanent and cannot be undone.');
    expect(dialog).toHaveTextContent(
      'Your balance of $12.50 is not paid out once the account is closed: withdraw it first on the Payouts page.',
    );
    expect(within(dialog).getByRole('link', { name: 'Payouts page' })).toHaveAttribute(
      'href',
      '/payouts',
    );
    // The safe choice has the focus, as in every confirmation of the app.
    expect(within(dialog).getByRole('button', { name: 'KEEP MY ACCOUNT' })).toHaveFocus();
    expect(within(dialog).getByLabelText('Your password')).toHaveAttribute('type', 'password');
  });

  it('sends nothing without a password, and shows a wrong one under the field', async () => {
    const fetchMock = serve(makeUser(), () =>
      jsonResponse(400, {
        code: 'VALIDATION_FAILED',
        message: SECURITY_MESSAGES.currentPasswordWrong,
        fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
      }),
    );
    const { user, dialog } = await openCloseDialog();
    const confirm = within(dialog).getByRole('button', { name: 'YES, CLOSE MY ACCOUNT' });
    await user.click(confirm);
    expect(
      await within(dialog).findByText(SECURITY_MESSAGES.currentPasswordRequired),
    ).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/me/close'))).toBe(false);

    const password = within(dialog).getByLabelText('Your password');
    await user.type(password, 'not-it{Enter}');
    expect(
      await within(dialog).findByText(SECURITY_MESSAGES.currentPasswordWrong),
    ).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(password).toHaveFocus());
  });

  it('shows where money is still held when the server refuses, and stays open', async () => {
    const refusal = ACCOUNT_CLOSE_MESSAGES.moneyHeld([
      ACCOUNT_CLOSE_MESSAGES.openChallenge(12),
      ACCOUNT_CLOSE_MESSAGES.tournamentPlaying(3),
    ]);
    serve(makeUser(), () => jsonResponse(409, { code: 'MONEY_HELD', message: refusal }));
    const { user, dialog } = await openCloseDialog();
    await user.type(within(dialog).getByLabelText('Your password'), 'correct-horse');
    await user.click(within(dialog).getByRole('button', { name: 'YES, CLOSE MY ACCOUNT' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('alertdialog', { name: 'Close your account?' })).toBeInTheDocument();
  });

  it('signs the player out and says the account is closed on the login page', async () => {
    const sent: unknown[] = [];
    serve(makeUser({ balance: 12.5 }), ({ body }) => {
      sent.push(body);
      return jsonResponse(200, { message: ACCOUNT_CLOSE_MESSAGES.closed, unclaimed: 12.5 });
    });
    const { user, view, dialog } = await openCloseDialog();
    await user.type(within(dialog).getByLabelText('Your password'), 'correct-horse{Enter}');

    expect(await screen.findByRole('heading', { name: 'ENTER THE ARENA' })).toBeInTheDocument();
    expect(sent).toEqual([{ password: 'correct-horse' }]);
    expect(view.history.at(-1)).toBe('/auth');
    expect(screen.getByText('ACCOUNT CLOSED')).toBeInTheDocument();
    expect(
      screen.getByText(
        `${ACCOUNT_CLOSE_MESSAGES.closed} The $12.50 left in it went to the operator's unclaimed funds.`,
      ),
    ).toBeInTheDocument();
    // Nobody is signed in here any more.
    expect(view.queryClient.getQueryData(['user'])).toBeNull();
  });

  it('tells an admin that another admin closes the account', async () => {
    serve(makeUser({ isAdmin: true }));
    renderApp('/profile');
    const card = await screen.findByRole('region', { name: 'Close my account' });
    expect(card).toHaveTextContent(ACCOUNT_CLOSE_MESSAGES.adminAccount);
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });
});
