import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { useUser } from '#client/features/auth/api/get-user.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderInApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const QR = 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=';
const RECOVERY = [...'abcdefghij'].map((letter) => `${letter.repeat(5)}-2345${letter}`);

const invalidCode = () =>
  jsonResponse(401, {
    code: 'INVALID_CODE',
    message: SECURITY_MESSAGES.invalidCode,
    fields: { code: SECURITY_MESSAGES.invalidCode },
  });

/** A signed-in player and the two-factor routes; the right code is 123456. */
function serve(initial: PublicUser) {
  let user = initial;
  return stubFetch(({ method, url, body }) => {
    const { path } = parseRequestUrl(url);
    const code = (body as { code?: string } | undefined)?.code;
    if (path === '/api/user') return jsonResponse(200, user);
    if (method === 'POST' && path === '/api/user/2fa/setup') {
      if ((body as { password?: string } | undefined)?.password !== 'my-password') {
        return jsonResponse(400, {
          code: 'VALIDATION_FAILED',
          message: SECURITY_MESSAGES.currentPasswordWrong,
          fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
        });
      }
      return jsonResponse(200, {
        secret: SECRET,
        otpauthUrl: `otpauth://totp/SkillStake:${user.username}?secret=${SECRET}`,
        qrCode: QR,
      });
    }
    if (method === 'POST' && path === '/api/user/2fa/enable') {
      if (code !== '123456') return invalidCode();
      user = { ...user, twoFactorEnabled: true };
      return jsonResponse(200, { recoveryCodes: RECOVERY });
    }
    if (method === 'POST' && path === '/api/user/2fa/disable') {
      const { password } = body as { password: string };
      if (password !== 'right-password') {
        return jsonResponse(401, {
          code: 'INVALID_CREDENTIALS',
          message: SECURITY_MESSAGES.currentPasswordWrong,
          fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
        });
      }
      if (code !== '123456') return invalidCode();
      user = { ...user, twoFactorEnabled: false };
      return jsonResponse(200, user);
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });
}

/** The card fed from the cached user, as the profile page feeds it. */
function CardOfSignedInUser() {
  const { user } = useUser();
  return user ? <TwoFactorCard user={user} /> : null;
}

async function renderCard(user: PublicUser) {
  serve(user);
  const person = userEvent.setup();
  renderInApp(<CardOfSignedInUser />, '/profile');
  const card = await screen.findByRole('region', { name: 'Two-Factor Sign-In' });
  return { person, card };
}

describe('the two-factor card', () => {
  it('sets up with the QR code or the key, refuses a wrong code, then shows the recovery codes once', async () => {
    const { person, card } = await renderCard(makeUser());
    expect(within(card).getByText('Off')).toBeInTheDocument();

    // The password first: a wrong one is refused under its field.
    await person.type(within(card).getByLabelText('Your password'), 'wrong-password');
    await person.click(within(card).getByRole('button', { name: 'SET UP' }));
    expect(
      await within(card).findByText(SECURITY_MESSAGES.currentPasswordWrong),
    ).toBeInTheDocument();
    await person.clear(within(card).getByLabelText('Your password'));
    await person.type(within(card).getByLabelText('Your password'), 'my-password');
    await person.click(within(card).getByRole('button', { name: 'SET UP' }));

    const qr = await within(card).findByRole('img', {
      name: 'QR code to add SkillStake to your authenticator app',
    });
    expect(qr).toHaveAttribute('src', QR);
    expect(
      within(card).getByLabelText('No camera? Type this key into the app instead:'),
    ).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(within(card).getByRole('list', { name: 'Set up two-factor sign-in' })).toHaveFocus();

    const code = within(card).getByLabelText('Code from the app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await person.type(code, '000000{Enter}');
    expect(await within(card).findByText(SECURITY_MESSAGES.invalidCode)).toBeInTheDocument();
    expect(code).toHaveAccessibleDescription(SECURITY_MESSAGES.invalidCode);

    await person.clear(code);
    await person.type(code, '123456');
    await person.click(within(card).getByRole('button', { name: 'ENABLE' }));

    const heading = await within(card).findByRole('heading', {
      name: 'SAVE THESE RECOVERY CODES NOW',
    });
    expect(heading).toHaveFocus();
    const list = within(card).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(RECOVERY);
    expect(within(card).getByText('On')).toBeInTheDocument();

    await person.click(within(card).getByRole('button', { name: 'COPY' }));
    expect(await navigator.clipboard.readText()).toContain(RECOVERY.join('\n'));

    const createObjectURL = vi.fn((_blob: Blob) => 'blob:codes');
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = createObjectURL;
        static override revokeObjectURL = vi.fn();
      },
    );
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await person.click(within(card).getByRole('button', { name: 'DOWNLOAD' }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(await textOf(createObjectURL.mock.calls[0]![0])).toContain(RECOVERY.join('\n'));

    await person.click(within(card).getByRole('button', { name: 'I HAVE SAVED THEM' }));
    expect(within(card).queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'TURN OFF' })).toBeInTheDocument();
  });

  it('turns off only with the password and a code, each error under its field', async () => {
    const { person, card } = await renderCard(makeUser({ twoFactorEnabled: true }));
    expect(within(card).getByText('On')).toBeInTheDocument();

    await person.click(within(card).getByRole('button', { name: 'TURN OFF' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in' });
    const password = within(dialog).getByLabelText('Password');
    const code = within(dialog).getByLabelText('Code or recovery code');
    await person.type(password, 'wrong-password');
    await person.type(code, '123456{Enter}');
    expect(password).toHaveAccessibleDescription(SECURITY_MESSAGES.currentPasswordWrong);

    await person.clear(password);
    await person.type(password, 'right-password');
    await person.clear(code);
    await person.type(code, '999999');
    await person.click(within(dialog).getByRole('button', { name: 'TURN OFF' }));
    expect(await within(dialog).findByText(SECURITY_MESSAGES.invalidCode)).toBeInTheDocument();

    await person.clear(code);
    await person.type(code, '123456{Enter}');
    expect(await within(card).findByText('Off')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'SET UP' })).toBeInTheDocument();
  });

  it('can cancel a set-up', async () => {
    const { person, card } = await renderCard(makeUser());
    await person.type(within(card).getByLabelText('Your password'), 'my-password');
    await person.click(within(card).getByRole('button', { name: 'SET UP' }));
    await person.click(await within(card).findByRole('button', { name: 'CANCEL' }));
    expect(within(card).getByRole('button', { name: 'SET UP' })).toBeInTheDocument();
    expect(within(card).queryByRole('img')).not.toBeInTheDocument();
  });
});
