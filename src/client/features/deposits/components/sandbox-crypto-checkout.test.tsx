import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { SandboxCryptoPayment } from '#shared/contracts/payments.ts';
import { jsonResponse, renderApp } from '#client/test-utils/render-app.tsx';
import { SANDBOX_ADDRESS, stubPaymentsApi } from '../testing/payments-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PAYMENT_ID = '482913004417';

const payment: SandboxCryptoPayment = {
  paymentId: PAYMENT_ID,
  priceAmount: 30,
  paymentAmount: 0.0006,
  paymentCurrency: 'btc',
  paymentAddress: SANDBOX_ADDRESS,
  status: 'waiting',
  expirationTime: '2025-03-14T12:20:00.000Z',
};

describe('/sandbox/crypto/:paymentId, the test checkout', () => {
  it('shows the payment under TEST MODE — NO REAL MONEY and simulates each result', async () => {
    const api = stubPaymentsApi({
      [`GET /api/sandbox/crypto/${PAYMENT_ID}`]: () => jsonResponse(200, payment),
      [`POST /api/sandbox/crypto/${PAYMENT_ID}/simulate`]: ({ body }) =>
        jsonResponse(200, { status: (body as { status: string }).status }),
    });
    const user = userEvent.setup();
    renderApp(`/sandbox/crypto/${PAYMENT_ID}`);

    expect(await screen.findByText('TEST MODE — NO REAL MONEY')).toBeInTheDocument();
    expect(await screen.findByText('$30.00')).toBeInTheDocument();
    expect(screen.getByText('0.0006 BTC')).toBeInTheDocument();
    expect(screen.getByText(SANDBOX_ADDRESS)).toBeInTheDocument();
    expect(screen.getByText('waiting')).toBeInTheDocument();

    const simulations = screen.getByRole('group', { name: 'Simulate a result' });
    expect(
      within(simulations)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Simulate finished',
      'Simulate confirmed',
      'Simulate partially paid',
      'Simulate expired',
      'Simulate failed',
    ]);

    await user.click(within(simulations).getByRole('button', { name: 'Simulate partially paid' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The payment is now partially paid.',
    );
    await user.click(within(simulations).getByRole('button', { name: 'Simulate finished' }));
    expect(await screen.findByText('finished')).toBeInTheDocument();
    expect(
      api.requestsTo(`POST /api/sandbox/crypto/${PAYMENT_ID}/simulate`).map((r) => r.body),
    ).toEqual([{ status: 'partially_paid' }, { status: 'finished' }]);
  });

  it('shows the server’s refusal of a simulation', async () => {
    stubPaymentsApi({
      [`GET /api/sandbox/crypto/${PAYMENT_ID}`]: () =>
        jsonResponse(200, { ...payment, status: 'finished' }),
      [`POST /api/sandbox/crypto/${PAYMENT_ID}/simulate`]: () =>
        jsonResponse(409, {
          code: 'CONFLICT',
          message: 'This sandbox payment has already been paid.',
        }),
    });
    const user = userEvent.setup();
    renderApp(`/sandbox/crypto/${PAYMENT_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Simulate expired' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sandbox payment has already been paid.',
    );
  });

  it('says PAYMENT NOT FOUND for a payment the server does not show this player', async () => {
    const api = stubPaymentsApi();
    renderApp(`/sandbox/crypto/${PAYMENT_ID}`);
    expect(await screen.findByText('PAYMENT NOT FOUND')).toBeInTheDocument();
    expect(api.requestsTo(`GET /api/sandbox/crypto/${PAYMENT_ID}`)).toHaveLength(1);
  });

  it('does not ask the server about an id that cannot be a payment', async () => {
    const api = stubPaymentsApi();
    renderApp('/sandbox/crypto/not%20an%20id');
    expect(await screen.findByText('PAYMENT NOT FOUND')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.path.startsWith('/api/sandbox'))).toHaveLength(0);
  });

  it('is protected: a visitor without a session goes to /auth', async () => {
    stubPaymentsApi({
      'GET /api/user': () =>
        jsonResponse(401, { code: 'UNAUTHENTICATED', message: 'Authentication required' }),
    });
    const { history } = renderApp(`/sandbox/crypto/${PAYMENT_ID}`);
    await vi.waitFor(() => expect(history.at(-1)).toBe('/auth'));
  });
});
