import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { CHARGEBACK_MESSAGES, type AdminChargeback } from '#shared/contracts/chargebacks.ts';
import type { PlayerPage } from '#shared/contracts/insights.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { OPERATOR, makePlayerPage } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { jsonResponse, makeUser, renderApp, stubFetch } from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

// The routes are lazily loaded chunks; loading them once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
  await import('#client/app/routes/admin-player.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const DUE = '2026-12-05T12:00:00.000Z';

const OPEN: AdminChargeback = {
  id: 'dp_sandbox_0123456789abcdef01234567',
  userId: 7,
  username: 'card_thief',
  paymentIntentId: 'pi_sandbox_abc',
  amount: 40,
  reason: 'fraudulent',
  status: 'needs_response',
  outcome: 'open',
  evidenceDueBy: DUE,
  evidence: {
    customer_name: 'card_thief',
    customer_email_address: 'thief@example.com',
    customer_purchase_ip: '203.0.113.7',
    service_date: '2026-11-28',
    product_description: 'A deposit',
    uncategorized_text: 'Confirmed 21 or older',
    access_activity_log:
      'Sign-ins to the account, newest first:\n2026-11-28 10:00 UTC · 203.0.113.7',
  },
  evidenceStagedAt: '2026-11-28T10:05:00.000Z',
  evidenceSubmittedAt: null,
  submittedAutomatically: false,
  createdAt: '2026-11-28T10:00:00.000Z',
};

const WON: AdminChargeback = {
  ...OPEN,
  id: 'dp_won',
  username: 'honest_player',
  outcome: 'won',
  status: 'won',
  evidenceSubmittedAt: '2026-11-29T10:00:00.000Z',
  submittedAutomatically: true,
};

describe('the admin CHARGEBACKS tab', () => {
  it('shows each dispute with its deadline, state and evidence, and submits an open one', async () => {
    let disputes = [OPEN, WON];
    const submitted: string[] = [];
    stubFetch((request) => {
      const { path } = parseRequestUrl(request.url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/chargebacks') return jsonResponse(200, disputes);
      if (request.method === 'POST' && path === `/api/admin/chargebacks/${OPEN.id}/submit`) {
        submitted.push(path);
        disputes = [{ ...OPEN, evidenceSubmittedAt: '2026-11-28T11:00:00.000Z' }, WON];
        return jsonResponse(200, { message: CHARGEBACK_MESSAGES.submitted });
      }
      if (path === '/api/admin/ledger-health') {
        return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
      }
      if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    renderApp('/admin');
    await user.click(await screen.findByRole('tab', { name: 'CHARGEBACKS' }));
    const list = await screen.findByRole('list', { name: 'Card disputes' });

    const open = within(list).getByRole('article', {
      name: '$40.00 disputed by card_thief’s bank',
    });
    expect(open).toHaveTextContent('OPEN');
    expect(open).toHaveTextContent(formatDateTime(DUE));
    expect(open).toHaveTextContent('fraudulent');
    expect(open).toHaveTextContent('needs response');
    await user.click(within(open).getByText('The evidence the bank reads'));
    expect(open).toHaveTextContent('203.0.113.7');

    const won = within(list).getByRole('article', {
      name: '$40.00 disputed by honest_player’s bank',
    });
    expect(won).toHaveTextContent('WON');
    expect(won).toHaveTextContent('by itself, 48 hours before the deadline');
    expect(within(won).queryByRole('button', { name: 'SUBMIT' })).not.toBeInTheDocument();

    await user.click(within(open).getByRole('button', { name: 'SUBMIT' }));
    expect(await findToast(CHARGEBACK_MESSAGES.submitted)).toBeVisible();
    expect(submitted).toHaveLength(1);
    await waitFor(() =>
      expect(within(open).queryByRole('button', { name: 'SUBMIT' })).not.toBeInTheDocument(),
    );
  });

  it('says so when no bank disputed anything', async () => {
    stubFetch((request) => {
      const { path } = parseRequestUrl(request.url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
      if (path === '/api/admin/ledger-health') {
        return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
      }
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    renderApp('/admin');
    await user.click(await screen.findByRole('tab', { name: 'CHARGEBACKS' }));
    expect(await screen.findByText('NO CARD DISPUTES')).toBeVisible();
  });
});

describe('the money lock on the admin player page', () => {
  const LOCK = {
    reason: 'a card payment of $40.00 was disputed',
    since: '2026-11-28T10:00:00.000Z',
  };

  it('says why and what is owed, and LIFT LOCK says why it cannot yet', async () => {
    const page = (): PlayerPage =>
      makePlayerPage({ profile: makeUser({ id: 1, moneyLock: LOCK, debt: 12 }) });
    stubFetch((request) => {
      const { path } = parseRequestUrl(request.url);
      if (path === '/api/user') return jsonResponse(200, OPERATOR);
      if (path === '/api/admin/players/1') return jsonResponse(200, page());
      if (request.method === 'POST' && path === '/api/admin/users/1/money-lock/lift') {
        return jsonResponse(409, {
          code: 'CONFLICT',
          message: CHARGEBACK_MESSAGES.stillOwes('$12.00'),
        });
      }
      return jsonResponse(200, []);
    });
    const user = userEvent.setup();
    renderApp('/admin/players/1');
    expect(await screen.findByText('Money locked')).toBeVisible();
    expect(
      screen.getByText(
        `Money locked since ${formatDateTime(LOCK.since)}: ${LOCK.reason}. Owes $12.00.`,
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'LIFT LOCK' }));
    expect(await findToast('Error')).toHaveTextContent(CHARGEBACK_MESSAGES.stillOwes('$12.00'));
  });
});
