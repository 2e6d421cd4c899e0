import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import { ADMIN_BALANCE_MESSAGES, type AdminUser } from '#shared/contracts/wallet.ts';
import { makeAdminUser, OPERATOR } from '#client/test-utils/admin.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';
import { checkBalanceChange } from '../api/adjust-balance.ts';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/admin.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PLAYER = makeAdminUser({ id: 1, username: 'ace_player', balance: 12.5 });
const OPERATOR_ROW = makeAdminUser({
  id: 99,
  username: 'operator',
  isAdmin: true,
  balance: 0,
  email: null,
});

function serve({
  users = () => [OPERATOR_ROW, PLAYER],
  onSuspend = () =>
    jsonResponse(200, {
      message: 'User suspended',
      userId: 1,
      suspension: { reason: 'Match fixing', until: null },
      cancelledChallengeIds: [4, 7],
    }),
  onUnsuspend = () => jsonResponse(200, { message: 'Suspension lifted', userId: 1 }),
  onBalance = () => jsonResponse(200, { balance: 10 }),
  onDelete = () =>
    jsonResponse(200, {
      message: 'User deleted',
      userId: 1,
      cancelledChallengeIds: [4],
      disputedChallengeIds: [],
      failedPayoutIds: [],
      unclaimed: 12.5,
    }),
}: {
  users?: () => AdminUser[];
  onSuspend?: FetchHandler;
  onUnsuspend?: FetchHandler;
  onBalance?: FetchHandler;
  onDelete?: FetchHandler;
} = {}) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, OPERATOR);
    if (path === '/api/admin/users') return jsonResponse(200, users());
    if (request.method === 'POST' && path === '/api/admin/users/1/balance') {
      return onBalance(request);
    }
    if (request.method === 'DELETE' && path === '/api/admin/users/1') return onDelete(request);
    if (request.method === 'POST' && path === '/api/admin/users/1/suspend') {
      return onSuspend(request);
    }
    if (request.method === 'POST' && path === '/api/admin/users/1/unsuspend') {
      return onUnsuspend(request);
    }
    if (path === '/api/admin/ledger-health') {
      return jsonResponse(200, { ok: true, problems: [], checkedAt: '2025-03-14T12:00:00Z' });
    }
    if (path === '/api/admin/audit') return jsonResponse(200, { items: [], nextBefore: null });
    return jsonResponse(200, []);
  });
}

function callsTo(fetchMock: ReturnType<typeof stubFetch>, method: string, path: string) {
  return fetchMock.mock.calls.filter(
    ([input, init]) => String(input) === path && (init?.method ?? 'GET') === method,
  );
}

/** /admin opens on OVERVIEW: the USERS tab is one click away. */
async function openUsersTab(user = userEvent.setup()) {
  renderApp('/admin');
  await user.click(await screen.findByRole('tab', { name: 'USERS' }));
  return user;
}

async function playerRow() {
  const user = await openUsersTab();
  const row = await screen.findByRole('article', { name: 'ace_player' });
  return { user, row };
}

async function openModify(user: ReturnType<typeof userEvent.setup>, row: HTMLElement) {
  await user.click(within(row).getByRole('button', { name: 'MODIFY BALANCE' }));
  return within(row).getByRole('form', { name: 'Modify balance of ace_player' });
}

describe('admin users', () => {
  it('lists each user with username, balance and the ADMIN tag', async () => {
    serve();
    await openUsersTab();

    const list = await screen.findByRole('list', { name: 'Users' });
    const operator = within(list).getByRole('article', { name: 'operator' });
    const player = within(list).getByRole('article', { name: 'ace_player' });
    expect(within(operator).getByText('ADMIN')).toBeInTheDocument();
    expect(operator).toHaveTextContent('$0.00');
    expect(within(player).queryByText('ADMIN')).not.toBeInTheDocument();
    expect(player).toHaveTextContent('$12.50');
    expect(player).toHaveTextContent('ace@example.com');
    // An admin cannot delete their own account.
    expect(within(operator).queryByRole('button', { name: 'DELETE USER' })).toBeNull();
    expect(within(player).getByRole('button', { name: 'DELETE USER' })).toBeInTheDocument();
  });
});

describe('modify balance', () => {
  it('needs a user first (the rule behind the inline form)', () => {
    expect(checkBalanceChange(null, '5')).toEqual({
      ok: false,
      message: ADMIN_BALANCE_MESSAGES.selectUser,
    });
    expect(checkBalanceChange(1, '-3.50')).toEqual({ ok: true, amountCents: -350n });
  });

  it('says Please enter an amount / Please enter a valid number and sends nothing', async () => {
    const fetchMock = serve();
    const { user, row } = await playerRow();
    const form = await openModify(user, row);
    const amount = within(form).getByLabelText('Amount ($)');
    expect(amount).toHaveFocus();

    await user.click(within(form).getByRole('button', { name: 'UPDATE' }));
    expect(amount).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_BALANCE_MESSAGES.amountRequired),
    );

    await user.type(amount, 'ten');
    await user.click(within(form).getByRole('button', { name: 'UPDATE' }));
    expect(amount).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_BALANCE_MESSAGES.amountInvalid),
    );

    await user.clear(amount);
    await user.type(amount, '1.005');
    await user.click(within(form).getByRole('button', { name: 'UPDATE' }));
    expect(amount).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_BALANCE_MESSAGES.amountInvalid),
    );

    expect(callsTo(fetchMock, 'POST', '/api/admin/users/1/balance')).toHaveLength(0);
    await user.click(within(form).getByRole('button', { name: 'CANCEL' }));
    expect(within(row).queryByRole('form')).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'MODIFY BALANCE' })).toHaveFocus();
  });

  it('posts the signed amount and reason, toasts and refreshes the list', async () => {
    let balance = 12.5;
    const fetchMock = serve({
      users: () => [OPERATOR_ROW, { ...PLAYER, balance }],
      onBalance: () => {
        balance = 10;
        return jsonResponse(200, { balance });
      },
    });
    const { user, row } = await playerRow();
    const form = await openModify(user, row);

    await user.type(within(form).getByLabelText('Amount ($)'), '-2.5');
    await user.type(within(form).getByLabelText('Reason (optional)'), 'Duplicate credit');
    await user.click(within(form).getByRole('button', { name: 'UPDATE' }));

    expect(await findToast('Balance updated')).toHaveTextContent(
      "ace_player's balance is now $10.00.",
    );
    expect(callsTo(fetchMock, 'POST', '/api/admin/users/1/balance')[0]?.[1]?.body).toBe(
      JSON.stringify({ amount: '-2.50', reason: 'Duplicate credit' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('article', { name: 'ace_player' })).toHaveTextContent('$10.00'),
    );
    expect(within(row).queryByRole('form')).not.toBeInTheDocument();
  });

  it('toasts Error with the server message, or Failed to update balance without one', async () => {
    let fail: () => Response | Promise<Response> = () =>
      jsonResponse(400, {
        code: 'INSUFFICIENT_BALANCE',
        message: ADMIN_BALANCE_MESSAGES.belowZero,
      });
    serve({ onBalance: () => fail() });
    const { user, row } = await playerRow();
    const form = await openModify(user, row);

    await user.type(within(form).getByLabelText('Amount ($)'), '-100');
    await user.click(within(form).getByRole('button', { name: 'UPDATE' }));
    expect(await findToast('Error')).toHaveTextContent(`400: ${ADMIN_BALANCE_MESSAGES.belowZero}`);

    fail = () => Promise.reject(new TypeError('Failed to fetch'));
    // The toast shows as the request fails; the button reads UPDATE again once it has settled.
    await user.click(await within(form).findByRole('button', { name: 'UPDATE' }));
    await waitFor(async () =>
      expect(await findToast('Error')).toHaveTextContent(ADMIN_BALANCE_MESSAGES.failed),
    );
  });
});

describe('delete user', () => {
  it('warns that deletion is permanent, and Keep User sends nothing', async () => {
    const fetchMock = serve();
    const { user, row } = await playerRow();

    await user.click(within(row).getByRole('button', { name: 'DELETE USER' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete ace_player?' });
    expect(dialog).toHaveTextContent('Deleting a user is permanent and cannot be undone.');
    expect(dialog).toHaveTextContent('($12.50)');

    await user.click(within(dialog).getByRole('button', { name: 'KEEP USER' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(callsTo(fetchMock, 'DELETE', '/api/admin/users/1')).toHaveLength(0);
  });

  it('deletes with the reason once confirmed and says what happened', async () => {
    const fetchMock = serve();
    const { user, row } = await playerRow();

    await user.click(within(row).getByRole('button', { name: 'DELETE USER' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete ace_player?' });
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Requested by player');
    await user.click(within(dialog).getByRole('button', { name: 'DELETE PERMANENTLY' }));

    const toast = await findToast('User deleted');
    expect(toast).toHaveTextContent('1 open challenge(s) cancelled');
    expect(toast).toHaveTextContent('$12.50 moved to unclaimed funds');
    expect(callsTo(fetchMock, 'DELETE', '/api/admin/users/1')[0]?.[1]?.body).toBe(
      JSON.stringify({ reason: 'Requested by player' }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('toasts Failed to delete user when the request gets no answer', async () => {
    serve({ onDelete: () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user, row } = await playerRow();

    await user.click(within(row).getByRole('button', { name: 'DELETE USER' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'DELETE PERMANENTLY' }));

    expect(await findToast('Error')).toHaveTextContent('Failed to delete user');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});

describe('suspend and unsuspend', () => {
  it('shows a suspended user with the SUSPENDED tag, the reason and the end', async () => {
    serve({
      users: () => [
        OPERATOR_ROW,
        { ...PLAYER, suspension: { reason: 'Chargeback abuse', until: '2031-03-02T12:00:00Z' } },
      ],
    });
    const { row } = await playerRow();
    expect(within(row).getByText('SUSPENDED')).toBeInTheDocument();
    expect(row).toHaveTextContent('Chargeback abuse');
    expect(row).toHaveTextContent('Until Mar 2, 2031');
    expect(within(row).getByRole('button', { name: 'UNSUSPEND' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'SUSPEND' })).toBeNull();
    // Admins cannot be suspended, so they are not offered it.
    const operator = screen.getByRole('article', { name: 'operator' });
    expect(within(operator).queryByRole('button', { name: 'SUSPEND' })).toBeNull();
  });

  it('asks for a reason and a future end, under the fields, before sending', async () => {
    const fetchMock = serve();
    const { user, row } = await playerRow();
    await user.click(within(row).getByRole('button', { name: 'SUSPEND' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend ace_player' });

    await user.click(within(dialog).getByRole('button', { name: 'SUSPEND USER' }));
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_MESSAGES.suspensionReasonRequired),
    );

    await user.type(reason, 'Match fixing');
    const until = within(dialog).getByLabelText('Until (optional)');
    fireEvent.change(until, { target: { value: '2001-01-01T10:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'SUSPEND USER' }));
    expect(until).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_MESSAGES.suspensionEndPast),
    );
    expect(callsTo(fetchMock, 'POST', '/api/admin/users/1/suspend')).toHaveLength(0);
  });

  it('suspends with the reason and the end as an instant, then says what it withdrew', async () => {
    const fetchMock = serve();
    const { user, row } = await playerRow();
    await user.click(within(row).getByRole('button', { name: 'SUSPEND' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend ace_player' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Match fixing');
    fireEvent.change(within(dialog).getByLabelText('Until (optional)'), {
      target: { value: '2099-03-02T12:00' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'SUSPEND USER' }));

    expect(await findToast('User suspended')).toHaveTextContent(
      '2 open challenge(s) cancelled and the stakes refunded.',
    );
    const body = JSON.parse(
      String(callsTo(fetchMock, 'POST', '/api/admin/users/1/suspend')[0]?.[1]?.body),
    ) as { reason: string; until: string };
    expect(body).toEqual({
      reason: 'Match fixing',
      until: new Date('2099-03-02T12:00').toISOString(),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server’s refusal under its field, and toasts it', async () => {
    serve({
      onSuspend: () =>
        jsonResponse(400, {
          code: 'VALIDATION_FAILED',
          message: ADMIN_MESSAGES.suspensionEndPast,
          fields: { until: ADMIN_MESSAGES.suspensionEndPast },
        }),
    });
    const { user, row } = await playerRow();
    await user.click(within(row).getByRole('button', { name: 'SUSPEND' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend ace_player' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Match fixing');
    await user.click(within(dialog).getByRole('button', { name: 'SUSPEND USER' }));

    expect(await findToast('Error')).toHaveTextContent(ADMIN_MESSAGES.suspensionEndPast);
    expect(within(dialog).getByLabelText('Until (optional)')).toHaveAccessibleDescription(
      expect.stringContaining(ADMIN_MESSAGES.suspensionEndPast),
    );
  });

  it('lifts a suspension with UNSUSPEND', async () => {
    let suspended = true;
    const fetchMock = serve({
      users: () => [
        OPERATOR_ROW,
        { ...PLAYER, suspension: suspended ? { reason: 'Abuse', until: null } : null },
      ],
      onUnsuspend: () => {
        suspended = false;
        return jsonResponse(200, { message: 'Suspension lifted', userId: 1 });
      },
    });
    const { user, row } = await playerRow();
    expect(row).toHaveTextContent('Until lifted');
    await user.click(within(row).getByRole('button', { name: 'UNSUSPEND' }));

    expect(await findToast('Suspension lifted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/admin/users/1/unsuspend')).toHaveLength(1);
    await waitFor(() =>
      expect(
        within(screen.getByRole('article', { name: 'ace_player' })).queryByText('SUSPENDED'),
      ).toBeNull(),
    );
  });
});
