import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { NotificationList } from '#shared/contracts/notifications.ts';
import { jsonResponse, renderInApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { NotificationBell } from './notification-bell.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const LIST: NotificationList = {
  unread: 2,
  notifications: [
    {
      id: 7,
      kind: 'result_reported',
      challengeId: 11,
      title: 'Challenge #11: a result was reported',
      body: 'Your opponent reported 3–1. Confirm or dispute it.',
      createdAt: '2031-01-01T12:00:00.000Z',
      read: false,
    },
    {
      id: 6,
      kind: 'challenge_accepted',
      challengeId: 11,
      title: 'Challenge #11 was accepted',
      body: 'Get ready to compete!',
      createdAt: '2031-01-01T11:00:00.000Z',
      read: false,
    },
  ],
};

describe('notification bell', () => {
  it('shows the unread count, lists the newest first, and marks all read', async () => {
    let unread = 2;
    const fetch = stubFetch(({ method, url }) => {
      if (method === 'POST') {
        unread = 0;
        return jsonResponse(200, { unread });
      }
      expect(url).toBe('/api/notifications?limit=20');
      return jsonResponse(200, {
        unread,
        notifications: LIST.notifications.map((n) => ({ ...n, read: unread === 0 })),
      });
    });
    renderInApp(<NotificationBell />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await userEvent.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(panel).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Unread: Challenge #11: a result was reported'),
      expect.stringContaining('Unread: Challenge #11 was accepted'),
    ]);
    expect(within(panel).getAllByRole('link')[0]).toHaveAttribute('href', '/challenges/11');
    await userEvent.click(within(panel).getByRole('button', { name: 'MARK ALL READ' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith(
      '/api/notifications/read',
      expect.objectContaining({ body: JSON.stringify({ all: true }) }),
    );
  });
});
