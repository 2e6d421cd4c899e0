import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { findToast, visibleToasts } from '#client/test-utils/toasts.ts';
import { jsonResponse, makeUser, renderInApp } from '#client/test-utils/render-app.tsx';
import { paymentsConfigQueryKey } from '../api/get-payments-config.ts';
import { stubPaymentsApi } from '../testing/payments-api.ts';
import { DepositFundsDialog } from './deposit-funds-dialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openDialog() {
  const user = userEvent.setup();
  const { queryClient } = renderInApp(<DepositFundsDialog />);
  await user.click(screen.getByRole('button', { name: 'DEPOSIT FUNDS' }));
  const dialog = await screen.findByRole('dialog', { name: /Deposit Funds/ });
  return { user, dialog, queryClient };
}

describe('deposit funds: the amount entry', () => {
  it.each([
    ['9.99', 'Minimum deposit amount is $10.'],
    ['10000.01', 'Maximum deposit amount is $10,000.'],
    ['', 'Please enter an amount'],
    ['12.345', 'Please enter a valid amount'],
    ['ten', 'Please enter a valid amount'],
  ])(
    'refuses "%s" with the INVALID AMOUNT toast and the reason under the field',
    async (typed, reason) => {
      const api = stubPaymentsApi();
      const { user, dialog } = await openDialog();

      if (typed) await user.type(within(dialog).getByLabelText('Amount ($)'), typed);
      await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));

      const toast = await findToast('INVALID AMOUNT');
      expect(toast).toHaveTextContent(reason);
      expect(within(dialog).getByText(reason)).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Amount ($)')).toHaveAttribute('aria-invalid', 'true');
      expect(within(dialog).queryByRole('group', { name: 'Payment method' })).toBeNull();
      expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    },
  );

  it('takes $10 and $10,000 exactly, then offers Credit Card or Cryptocurrency', async () => {
    stubPaymentsApi();
    const { user, dialog } = await openDialog();

    await user.type(within(dialog).getByLabelText('Amount ($)'), '10');
    await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));
    const methods = await within(dialog).findByRole('group', { name: 'Payment method' });
    expect(dialog).toHaveTextContent('$10.00');
    // Each button is named by all it shows, so a speech-input user can say what they see.
    expect(
      within(methods).getByRole('button', {
        name: /^Credit Card\s*TEST MODE\s*Pay with a credit or debit card\.$/,
      }),
    ).toBeInTheDocument();
    expect(
      within(methods).getByRole('button', {
        name: /^Cryptocurrency\s*TEST MODE\s*Send coins from your own wallet to a payment address\.$/,
      }),
    ).toBeInTheDocument();
    expect(visibleToasts()).toHaveLength(0);

    // Cancel goes back to the entry, which keeps the amount.
    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    const amount = within(dialog).getByLabelText('Amount ($)');
    expect(amount).toHaveValue('10.00');
    await user.clear(amount);
    await user.type(amount, '10000');
    await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));
    expect(await within(dialog).findByText('$10,000.00')).toBeInTheDocument();
  });

  it('withdraws the INVALID AMOUNT toast once a good amount is entered', async () => {
    stubPaymentsApi();
    const { user, dialog } = await openDialog();
    const amount = within(dialog).getByLabelText('Amount ($)');

    await user.type(amount, '5');
    await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));
    await findToast('INVALID AMOUNT');
    await user.clear(amount);
    await user.type(amount, '25');
    await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));

    await within(dialog).findByRole('group', { name: 'Payment method' });
    expect(visibleToasts()).toHaveLength(0);
  });

  it('shows TEST MODE while the providers are the sandbox', async () => {
    stubPaymentsApi();
    const { user, dialog } = await openDialog();
    expect(await within(dialog).findByText('TEST MODE')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Amount ($)'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));
    const methods = await within(dialog).findByRole('group', { name: 'Payment method' });
    expect(within(methods).getAllByText('TEST MODE')).toHaveLength(2);
  });

  it('shows no TEST MODE badge when Stripe and NOWPayments are configured', async () => {
    stubPaymentsApi({
      'GET /api/payments/config': () =>
        jsonResponse(200, {
          card: { enabled: true, mode: 'stripe', publishableKey: 'pk_test_123' },
          crypto: { enabled: true, mode: 'nowpayments', payCurrency: 'btc' },
        }),
    });
    const { user, dialog, queryClient } = await openDialog();
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(paymentsConfigQueryKey)).toMatchObject({
        card: { mode: 'stripe' },
      }),
    );
    await user.type(within(dialog).getByLabelText('Amount ($)'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));
    await within(dialog).findByRole('group', { name: 'Payment method' });
    expect(within(dialog).queryByText('TEST MODE')).toBeNull();
  });
});

describe('deposit funds: a suspended player', () => {
  it('says why deposits are paused instead of asking for an amount', async () => {
    const api = stubPaymentsApi({
      'GET /api/user': () =>
        jsonResponse(
          200,
          makeUser({
            suspension: { reason: 'Chargeback abuse', until: '2031-03-02T12:00:00.000Z' },
          }),
        ),
    });
    const { user, dialog } = await openDialog();

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('ACCOUNT SUSPENDED');
    expect(alert).toHaveTextContent(
      'Your account is suspended until 2031-03-02 12:00 UTC: Chargeback abuse',
    );
    expect(dialog).toHaveTextContent('Deposits are paused while your account is suspended.');
    expect(within(dialog).queryByLabelText('Amount ($)')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'CLOSE' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
  });
});
