import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { DeviceLinkView, PlayerPage } from '#shared/contracts/insights.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { OPERATOR, makePlayerPage } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin-player.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SHARED_AT = '2025-03-10T18:30:00.000Z';
const CLEARED_AT = '2025-03-12T09:15:00.000Z';

const LINKED: DeviceLinkView = {
  player: { id: 12, username: 'twin_two' },
  lastSharedAt: SHARED_AT,
  cleared: null,
};

const CLEARED: DeviceLinkView = {
  player: { id: 13, username: 'older_brother' },
  lastSharedAt: '2025-03-08T07:00:00.000Z',
  cleared: { note: 'brothers, one console', clearedAt: CLEARED_AT },
};

/** Serves the operator and ace_player's page, which `page()` reads at each request. */
function serve(page: () => PlayerPage, onPost: FetchHandler = () => jsonResponse(404, {})) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (path === '/api/admin/players/1') return jsonResponse(200, page());
    if (request.method === 'POST') return onPost(request);
    return jsonResponse(200, []);
  });
}

async function findSection(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'LINKED BY A DEVICE' });
}

describe('LINKED BY A DEVICE on the admin player page', () => {
  it('lists each linked account with when they last shared a device, and a cleared link’s note', async () => {
    serve(() => makePlayerPage({ deviceLinks: [LINKED, CLEARED] }));
    const user = userEvent.setup();
    const { history } = renderApp('/admin/players/1');

    const section = await findSection();
    const linked = within(section).getByRole('article', { name: 'twin_two' });
    expect(linked).toHaveTextContent(`Last shared a device ${formatDateTime(SHARED_AT)}`);
    expect(within(linked).getByRole('button', { name: 'CLEAR LINK' })).toBeVisible();
    expect(linked).not.toHaveTextContent('Cleared');

    const cleared = within(section).getByRole('article', { name: 'older_brother' });
    expect(cleared).toHaveTextContent('Cleared: brothers, one console');
    expect(cleared).toHaveTextContent(`Cleared ${formatDateTime(CLEARED_AT)}`);
    expect(within(cleared).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(cleared).getByRole('link', { name: 'older_brother' }));
    expect(history.at(-1)).toBe('/admin/players/13');
  });

  it('says so when no other account signed in on the player’s devices', async () => {
    serve(() => makePlayerPage());
    renderApp('/admin/players/1');

    const section = await findSection();
    expect(section).toHaveTextContent('No other account signed in on this player’s devices.');
    expect(within(section).queryByRole('article')).not.toBeInTheDocument();
  });

  it('clears a link with a required note, then shows it cleared', async () => {
    let links = [LINKED];
    const posts: Array<{ path: string; body: unknown }> = [];
    serve(
      () => makePlayerPage({ deviceLinks: links }),
      (request) => {
        posts.push({ path: parseRequestUrl(request.url).path, body: request.body });
        links = [{ ...LINKED, cleared: { note: 'twins, one laptop', clearedAt: CLEARED_AT } }];
        return jsonResponse(200, { message: 'Link cleared. These accounts may play each other.' });
      },
    );
    const user = userEvent.setup();
    renderApp('/admin/players/1');

    const section = await findSection();
    await user.click(within(section).getByRole('button', { name: 'CLEAR LINK' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear the link with twin_two' });
    const note = within(dialog).getByRole('textbox', { name: 'Note' });
    expect(note).toHaveFocus();
    expect(note).toHaveAttribute('placeholder', 'brothers, one console');

    // The note is required: nothing is sent without one.
    await user.click(within(dialog).getByRole('button', { name: 'CLEAR LINK' }));
    expect(await within(dialog).findByText('A note is required')).toBeVisible();
    expect(note).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);

    await user.type(note, '  twins, one laptop ');
    await user.click(within(dialog).getByRole('button', { name: 'CLEAR LINK' }));

    expect(await findToast('Link cleared. These accounts may play each other.')).toBeVisible();
    expect(posts).toEqual([
      {
        path: '/api/admin/players/1/links/clear',
        body: { otherUserId: 12, note: 'twins, one laptop' },
      },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The page is fetched again and shows the link cleared, with no button left to press.
    const row = await within(section).findByText('Cleared: twins, one laptop');
    expect(row.closest('article')).toHaveAccessibleName('twin_two');
    expect(within(section).queryByRole('button', { name: 'CLEAR LINK' })).not.toBeInTheDocument();
  });

  it('shows the server’s message when it refuses, and keeps the dialog open', async () => {
    serve(
      () => makePlayerPage({ deviceLinks: [LINKED] }),
      () => jsonResponse(404, { message: 'These accounts do not share a device.' }),
    );
    const user = userEvent.setup();
    renderApp('/admin/players/1');

    const section = await findSection();
    await user.click(within(section).getByRole('button', { name: 'CLEAR LINK' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear the link with twin_two' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'cousins');
    await user.click(within(dialog).getByRole('button', { name: 'CLEAR LINK' }));

    const toast = await findToast('Error');
    expect(toast).toHaveTextContent('404: These accounts do not share a device.');
    expect(dialog).toBeVisible();
  });
});
