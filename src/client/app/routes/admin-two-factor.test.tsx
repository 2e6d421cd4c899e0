import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A server that requires two-factor sign-in of admins; this operator has none until enabled. */
function serveStrictAdmin() {
  let operator = OPERATOR;
  return stubFetch(({ method, url, body }) => {
    const { path } = parseRequestUrl(url);
    if (path === '/api/user') return jsonResponse(200, operator);
    if (method === 'POST' && path === '/api/user/2fa/setup') {
      return jsonResponse(200, {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/SkillStake:operator?secret=JBSWY3DPEHPK3PXP',
        qrCode: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      });
    }
    if (method === 'POST' && path === '/api/user/2fa/enable') {
      if ((body as { code: string }).code !== '123456') return jsonResponse(500, {});
      operator = { ...operator, twoFactorEnabled: true };
      return jsonResponse(200, { recoveryCodes: ['aaaaa-bbbbb'] });
    }
    if (path.startsWith('/api/admin/') && !operator.twoFactorEnabled) {
      return jsonResponse(403, {
        code: 'TWO_FACTOR_SETUP_REQUIRED',
        message: SECURITY_MESSAGES.adminNeedsTwoFactor,
      });
    }
    if (path === '/api/admin/ledger-health') {
      return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
    }
    return jsonResponse(200, []);
  });
}

describe('the admin page under ADMIN_2FA_REQUIRED', () => {
  it('shows the set-up instead of the tabs, and the tabs once two-factor is on', async () => {
    const fetchMock = serveStrictAdmin();
    const user = userEvent.setup();
    renderApp('/admin');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      SECURITY_MESSAGES.adminNeedsTwoFactor,
    );
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    // One admin call asks; the dashboard's dozen are not made while they would all be refused.
    const adminCalls = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).startsWith('/api/admin/'));
    expect(adminCalls()).toHaveLength(1);

    const card = screen.getByRole('region', { name: 'Two-Factor Sign-In' });
    await user.type(within(card).getByLabelText('Your password'), 'operator-password');
    await user.click(within(card).getByRole('button', { name: 'SET UP' }));
    await user.type(await within(card).findByLabelText('Code from the app'), '123456{Enter}');
    expect(await within(card).findByText('aaaaa-bbbbb')).toBeInTheDocument();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'I HAVE SAVED THEM' }));
    expect(await screen.findByRole('tablist', { name: 'Admin sections' })).toBeInTheDocument();
    expect(screen.queryByText(SECURITY_MESSAGES.adminNeedsTwoFactor)).not.toBeInTheDocument();
    expect(await screen.findByText('LEDGER OK')).toBeInTheDocument();
  });

  it('opens the dashboard at once for an admin whose two-factor sign-in is on', async () => {
    stubFetch(({ url }) => {
      const { path } = parseRequestUrl(url);
      if (path === '/api/user') return jsonResponse(200, { ...OPERATOR, twoFactorEnabled: true });
      if (path === '/api/admin/ledger-health') {
        return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
      }
      return jsonResponse(200, []);
    });
    renderApp('/admin');
    expect(await screen.findByRole('tablist', { name: 'Admin sections' })).toBeInTheDocument();
  });
});
