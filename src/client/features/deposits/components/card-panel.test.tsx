import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { findToast } from '#client/test-utils/toasts.ts';
import { jsonResponse, renderInApp } from '#client/test-utils/render-app.tsx';
import { stubPaymentsApi, type PaymentRoutes } from '../testing/payments-api.ts';
import { DepositFundsDialog } from './deposit-funds-dialog.tsx';

const stripeScript = () => document.querySelector('script[src*="stripe"]');

afterEach(() => {
  vi.unstubAllGlobals();
  stripeScript()?.remove();
});

const INTENT = { clientSecret: 'pi_3Abc_secret_xyz', paymentIntentId: 'pi_3Abc' };

function serve(routes: PaymentRoutes = {}) {
  return stubPaymentsApi({
    'POST /api/create-payment-intent': () => jsonResponse(200, INTENT),
    'POST /api/sandbox/card/confirm': ({ body }) =>
      (body as { cardNumber: string }).cardNumber === '4000000000000002'
        ? jsonResponse(402, { code: 'PAYMENT_DECLINED', message: 'Your card was declined.' })
        : jsonResponse(200, { paymentIntentId: INTENT.paymentIntentId, status: 'succeeded' }),
    'POST /api/confirm-payment': () => jsonResponse(200, { success: true, amount: 25 }),
    ...routes,
  });
}

async function openCardPanel(amount = '25') {
  const user = userEvent.setup();
  renderInApp(<DepositFundsDialog />);
  await user.click(screen.getByRole('button', { name: 'DEPOSIT FUNDS' }));
  const dialog = await screen.findByRole('dialog', { name: /Deposit Funds/ });
  await user.type(within(dialog).getByLabelText('Amount ($)'), amount);
  await user.click(within(dialog).getByRole('button', { name: 'CONTINUE' }));
  await user.click(await within(dialog).findByRole('button', { name: /^Credit Card/ }));
  return { user, dialog };
}

async function payWith(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  cardNumber: string,
) {
  await user.type(await within(dialog).findByLabelText('Card Number'), cardNumber);
  await user.type(within(dialog).getByLabelText('Expiry (MM/YY)'), '12/34');
  await user.type(within(dialog).getByLabelText('CVC'), '123');
  await user.click(within(dialog).getByRole('button', { name: /^PAY / }));
}

describe('deposit funds: the sandbox card form', () => {
  it('shows TEST MODE with the test cards, pays with 4242… and says DEPOSIT SUCCESSFUL', async () => {
    const api = serve();
    const { user, dialog } = await openCardPanel();

    expect(await within(dialog).findByText('TEST MODE')).toBeInTheDocument();
    const testCards = within(dialog).getByRole('region', { name: 'Test cards' });
    expect(testCards).toHaveTextContent('4242 4242 4242 4242 succeeds');
    expect(testCards).toHaveTextContent('4000 0000 0000 0002 is declined');
    expect(within(dialog).getByRole('button', { name: 'PAY $25.00' })).toBeInTheDocument();

    await payWith(user, dialog, '4242 4242 4242 4242');

    const done = await within(dialog).findByRole('status');
    expect(done).toHaveTextContent('DEPOSIT SUCCESSFUL');
    expect(done).toHaveTextContent('$25.00 has been added to your account.');
    expect(await findToast('DEPOSIT SUCCESSFUL')).toHaveTextContent(
      '$25.00 has been added to your account.',
    );
    expect(api.requestsTo('POST /api/create-payment-intent')[0]?.body).toEqual({ amount: '25.00' });
    expect(api.requestsTo('POST /api/sandbox/card/confirm')[0]?.body).toEqual({
      clientSecret: INTENT.clientSecret,
      cardNumber: '4242424242424242',
    });
    expect(api.requestsTo('POST /api/confirm-payment')[0]?.body).toEqual({
      paymentIntentId: INTENT.paymentIntentId,
      amount: '25.00',
    });

    await user.click(within(dialog).getByRole('button', { name: 'DONE' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stripeScript()).toBeNull();
  });

  it('loads Stripe.js from Stripe’s own host when Stripe is the provider, and no sandbox form', async () => {
    const api = serve({
      'GET /api/payments/config': () =>
        jsonResponse(200, {
          card: { enabled: true, mode: 'stripe', publishableKey: 'pk_test_123' },
          crypto: { enabled: true, mode: 'nowpayments', payCurrency: 'btc' },
        }),
    });
    const { dialog } = await openCardPanel();

    await vi.waitFor(() =>
      expect(stripeScript()?.getAttribute('src')).toMatch(/^https:\/\/js\.stripe\.com\//),
    );
    expect(
      within(dialog).getByRole('status', { name: 'Loading the secure card form' }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Card Number')).toBeNull();
    expect(within(dialog).queryByText('TEST MODE')).toBeNull();
    expect(api.requestsTo('POST /api/create-payment-intent')).toHaveLength(0);
  });

  it('shows the card error panel with RETRY and CANCEL for a declined card; CANCEL returns to the entry', async () => {
    const api = serve();
    const { user, dialog } = await openCardPanel();

    await payWith(user, dialog, '4000 0000 0000 0002');

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('PAYMENT FAILED');
    expect(alert).toHaveTextContent('Your card was declined.');
    expect(within(dialog).getByRole('button', { name: 'RETRY' })).toBeInTheDocument();
    expect(api.requestsTo('POST /api/confirm-payment')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'CANCEL' }));
    expect(within(dialog).getByLabelText('Amount ($)')).toHaveValue('25.00');
  });

  it('checks the card details before sending anything', async () => {
    const api = serve();
    const { user, dialog } = await openCardPanel();

    await user.type(await within(dialog).findByLabelText('Expiry (MM/YY)'), '13/30');
    await user.type(within(dialog).getByLabelText('CVC'), '12');
    await user.click(within(dialog).getByRole('button', { name: 'PAY $25.00' }));

    expect(await within(dialog).findByText('Please enter a card number')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter the expiry date as MM/YY')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter the 3 or 4 digit CVC')).toBeInTheDocument();
    expect(api.requestsTo('POST /api/create-payment-intent')).toHaveLength(0);
  });

  it('shows the server’s 503 in the error panel as PAYMENT SERVICE ERROR', async () => {
    serve({
      'POST /api/create-payment-intent': () =>
        jsonResponse(503, {
          code: 'SERVICE_UNAVAILABLE',
          message: 'Payment service is currently unavailable. Please try again later.',
        }),
    });
    const { user, dialog } = await openCardPanel();
    await payWith(user, dialog, '4242 4242 4242 4242');

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('PAYMENT SERVICE ERROR');
    expect(alert).toHaveTextContent(
      'Payment service is currently unavailable. Please try again later.',
    );
    expect(alert).not.toHaveTextContent('503');
  });

  it('shows a suspension that came after the page loaded as ACCOUNT SUSPENDED', async () => {
    const message = 'Your account is suspended: Chargeback abuse';
    serve({
      'POST /api/create-payment-intent': () =>
        jsonResponse(403, { code: 'ACCOUNT_SUSPENDED', message }),
    });
    const { user, dialog } = await openCardPanel();
    await payWith(user, dialog, '4242 4242 4242 4242');

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('ACCOUNT SUSPENDED');
    expect(alert).toHaveTextContent(message);
    expect(alert).not.toHaveTextContent('403');
  });

  it.each([
    ['card payments are switched off', { enabled: false, mode: 'sandbox', publishableKey: null }],
    [
      'Stripe is the provider but no publishable key is set',
      {
        enabled: true,
        mode: 'stripe',
        publishableKey: null,
      },
    ],
  ])('says PAYMENT SERVICE UNAVAILABLE when %s', async (_case, card) => {
    const api = serve({
      'GET /api/payments/config': () =>
        jsonResponse(200, { card, crypto: { enabled: true, mode: 'sandbox', payCurrency: 'btc' } }),
    });
    const { dialog } = await openCardPanel();

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('PAYMENT SERVICE UNAVAILABLE');
    expect(alert).toHaveTextContent(
      'Payment service is currently unavailable. Please try again later.',
    );
    expect(within(dialog).queryByLabelText('Card Number')).toBeNull();
    expect(api.requestsTo('POST /api/create-payment-intent')).toHaveLength(0);
  });
});
