import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/user.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
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

/** `user()` answers GET /api/user each time it is asked; `onVerify` the verification. */
function serve(user: () => PublicUser | null, onVerify: FetchHandler) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') {
      const current = user();
      return current
        ? jsonResponse(200, current)
        : jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Not signed in' });
    }
    if (request.method === 'POST' && path === '/api/user/verify-email') return onVerify(request);
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

function verifyPosts(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls
    .filter(([input]) => String(input) === '/api/user/verify-email')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

describe('/verify-email', () => {
  it('verifies only when the button is pressed, then shows the server’s message', async () => {
    const fetchMock = serve(
      () => null,
      () => jsonResponse(200, { message: SECURITY_MESSAGES.emailVerified }),
    );
    const user = userEvent.setup();
    renderApp('/verify-email?token=tok_abc');

    const button = await screen.findByRole('button', { name: 'VERIFY MY E-MAIL' });
    expect(screen.getByRole('heading', { level: 1, name: 'Verify your e-mail' })).toBeVisible();
    // Opening the link, as a mail scanner does, proves nothing.
    expect(verifyPosts(fetchMock)).toEqual([]);
    await user.click(button);

    const message = await screen.findByText(SECURITY_MESSAGES.emailVerified);
    expect(message.closest('[tabindex="-1"]')).toHaveFocus();
    expect(verifyPosts(fetchMock)).toEqual([{ token: 'tok_abc' }]);
    expect(screen.queryByRole('button', { name: 'VERIFY MY E-MAIL' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'BACK TO LOGIN' })).toHaveAttribute('href', '/auth');
  });

  it('refreshes a signed-in player, whose profile then says Verified', async () => {
    let verified = false;
    serve(
      () => makeUser({ email: 'ace@example.com', emailVerified: verified }),
      () => {
        verified = true;
        return jsonResponse(200, { message: SECURITY_MESSAGES.emailVerified });
      },
    );
    const user = userEvent.setup();
    renderApp('/verify-email?token=tok_abc');

    await user.click(await screen.findByRole('button', { name: 'VERIFY MY E-MAIL' }));
    await screen.findByText(SECURITY_MESSAGES.emailVerified);
    await user.click(screen.getByRole('link', { name: 'BACK TO PROFILE' }));

    const card = await screen.findByRole('region', { name: 'Contact Info' });
    expect(await within(card).findByText('Verified')).toBeInTheDocument();
    expect(within(card).queryByText('Not verified')).not.toBeInTheDocument();
  });

  it('shows the message of a link that is used or expired', async () => {
    serve(
      () => null,
      () => jsonResponse(400, { code: 'INVALID_TOKEN', message: SECURITY_MESSAGES.invalidLink }),
    );
    const user = userEvent.setup();
    renderApp('/verify-email?token=used');

    await user.click(await screen.findByRole('button', { name: 'VERIFY MY E-MAIL' }));

    expect(await screen.findByText(SECURITY_MESSAGES.invalidLink)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'VERIFY MY E-MAIL' })).not.toBeInTheDocument();
  });

  it('says a link without its token is invalid, and offers no button', async () => {
    const fetchMock = serve(
      () => null,
      () => jsonResponse(500, {}),
    );
    renderApp('/verify-email');

    expect(await screen.findByText(SECURITY_MESSAGES.invalidLink)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'VERIFY MY E-MAIL' })).not.toBeInTheDocument();
    expect(verifyPosts(fetchMock)).toEqual([]);
  });
});
