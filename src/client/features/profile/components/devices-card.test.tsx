import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { SECURITY_MESSAGES, type SessionView } from '#shared/contracts/account-security.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, renderInApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { DevicesCard } from './devices-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function session(overrides: Partial<SessionView>): SessionView {
  return {
    id: 1,
    current: false,
    browser: 'Chrome 131 on Windows',
    address: '203.0.113.5',
    place: null,
    createdAt: '2025-03-14T12:00:00.000Z',
    lastSeenAt: '2025-03-15T08:30:00.000Z',
    ...overrides,
  };
}

const THIS_ONE = session({ id: 7, current: true, browser: 'Firefox 133 on Linux' });
const PHONE = session({
  id: 5,
  browser: 'Safari 18 on iOS',
  address: '2001:db8::1',
  place: 'Toronto (Old Toronto), Ontario, CA',
});
const UNKNOWN = session({ id: 3, browser: null, address: null });

/** The sessions API over a list the test can watch shrink; `onDelete` answers each DELETE. */
function serve(initial: SessionView[], { onDelete }: { onDelete?: (id: number) => Response } = {}) {
  let sessions = initial;
  const fetchMock = stubFetch(({ method, url }) => {
    const { path } = parseRequestUrl(url);
    if (method === 'GET' && path === '/api/user/sessions') return jsonResponse(200, sessions);
    const deleted = /^\/api\/user\/sessions\/(\d+)$/.exec(path);
    if (method === 'DELETE' && deleted) {
      const id = Number(deleted[1]);
      if (onDelete) return onDelete(id);
      sessions = sessions.filter((s) => s.id !== id);
      return new Response(null, { status: 204 });
    }
    if (method === 'POST' && path === '/api/user/sessions/revoke-others') {
      const revoked = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return jsonResponse(200, { revoked });
    }
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return fetchMock;
}

function callsTo(fetchMock: ReturnType<typeof stubFetch>, method: string, path: string) {
  return fetchMock.mock.calls.filter(
    ([input, init]) => String(input) === path && (init?.method ?? 'GET') === method,
  );
}

async function renderCard() {
  renderInApp(<DevicesCard />, '/profile');
  const card = await screen.findByRole('region', { name: 'Devices' });
  const list = await within(card).findByRole('list', { name: 'Signed-in devices' });
  return { card, list };
}

describe('Devices', () => {
  it('lists each session with its browser, address, dates, and This device on the current one', async () => {
    serve([THIS_ONE, PHONE, UNKNOWN]);
    const { list } = await renderCard();

    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Firefox 133 on LinuxThis device');
    expect(rows[0]).toHaveTextContent(`Signed in ${formatDateTime(THIS_ONE.createdAt)}`);
    expect(rows[0]).toHaveTextContent(`Last seen ${formatDateTime(THIS_ONE.lastSeenAt)}`);
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Safari 18 on iOS');
    expect(rows[1]).toHaveTextContent('Toronto (Old Toronto), Ontario, CA2001:db8::1');
    expect(rows[1]).not.toHaveTextContent('This device');
    expect(rows[2]).toHaveTextContent('Unknown browser');
    expect(rows[2]).toHaveTextContent('Unknown address');
    expect(
      within(rows[2]!).getByRole('button', { name: 'SIGN OUT Unknown browser' }),
    ).toBeEnabled();
  });

  it('signs one device out, drops its row and keeps the keyboard on the next one', async () => {
    const fetchMock = serve([THIS_ONE, PHONE, UNKNOWN]);
    const user = userEvent.setup();
    const { list } = await renderCard();

    const phone = within(list).getByRole('button', { name: 'SIGN OUT Safari 18 on iOS' });
    phone.focus();
    await user.keyboard('{Enter}');

    expect(await findToast('DEVICE SIGNED OUT')).toHaveTextContent(
      'Safari 18 on iOS is signed out.',
    );
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(callsTo(fetchMock, 'DELETE', '/api/user/sessions/5')).toHaveLength(1);
    await waitFor(() =>
      expect(within(list).getByRole('button', { name: 'SIGN OUT Unknown browser' })).toHaveFocus(),
    );
  });

  it('drops a row the server no longer knows, with its message', async () => {
    serve([THIS_ONE, PHONE], {
      onDelete: () =>
        jsonResponse(404, { code: 'NOT_FOUND', message: SECURITY_MESSAGES.sessionNotFound }),
    });
    const user = userEvent.setup();
    const { list } = await renderCard();

    await user.click(within(list).getByRole('button', { name: 'SIGN OUT Safari 18 on iOS' }));

    expect(await findToast('SIGN OUT FAILED')).toHaveTextContent(SECURITY_MESSAGES.sessionNotFound);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  });

  it('signs out everywhere else only once confirmed', async () => {
    const fetchMock = serve([THIS_ONE, PHONE, UNKNOWN]);
    const user = userEvent.setup();
    const { card, list } = await renderCard();

    const everywhere = within(card).getByRole('button', { name: 'SIGN OUT EVERYWHERE ELSE' });
    await user.click(everywhere);
    let dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveTextContent('All 2 other devices');
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/user/sessions/revoke-others')).toHaveLength(0);

    await user.click(everywhere);
    dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'SIGN THEM OUT' }));

    expect(await findToast('SIGNED OUT EVERYWHERE ELSE')).toHaveTextContent(
      '2 other devices signed out. This device stays signed in.',
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'POST', '/api/user/sessions/revoke-others')).toHaveLength(1);
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(everywhere).toBeDisabled();
    // The dialog's trigger can no longer take the focus back: the card keeps it.
    await waitFor(() => expect(card.contains(document.activeElement)).toBe(true));
  });

  it('has nothing to sign out when this is the only device', async () => {
    serve([THIS_ONE]);
    const { card } = await renderCard();

    expect(within(card).getByRole('button', { name: 'SIGN OUT EVERYWHERE ELSE' })).toBeDisabled();
    expect(within(card).queryByRole('button', { name: /^SIGN OUT (?!EVERYWHERE)/ })).toBeNull();
  });

  it('says so when the list cannot be loaded', async () => {
    stubFetch(() => jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong' }));
    renderInApp(<DevicesCard />);

    const card = await screen.findByRole('region', { name: 'Devices' });
    expect(await within(card).findByText('The devices could not be loaded.')).toBeInTheDocument();
  });
});
