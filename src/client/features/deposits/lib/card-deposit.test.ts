import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '#client/test-utils/render-app.tsx';
import { stubPaymentsApi, type PaymentRoutes } from '../testing/payments-api.ts';
import {
  confirmWithSandboxCard,
  depositByCard,
  type ConfirmWithProvider,
  type ProviderResult,
} from './card-deposit.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const INTENT = { clientSecret: 'pi_3Abc_secret_xyz', paymentIntentId: 'pi_3Abc' };

const paid = (): Promise<ProviderResult> =>
  Promise.resolve({ kind: 'succeeded', paymentIntentId: INTENT.paymentIntentId });

function serve(routes: PaymentRoutes = {}) {
  return stubPaymentsApi({
    'POST /api/create-payment-intent': () => jsonResponse(200, INTENT),
    'POST /api/confirm-payment': () => jsonResponse(200, { success: true, amount: 25 }),
    ...routes,
  });
}

describe('a card deposit, end to end through the API', () => {
  it('opens an intent, lets the provider pay it, and has the server credit it', async () => {
    const api = serve();
    const provider = vi.fn<ConfirmWithProvider>(paid);

    await expect(depositByCard(2500n, provider)).resolves.toEqual({
      kind: 'succeeded',
      amount: 25,
    });

    expect(api.requestsTo('POST /api/create-payment-intent')[0]?.body).toEqual({ amount: '25.00' });
    expect(provider).toHaveBeenCalledWith(INTENT.clientSecret);
    expect(api.requestsTo('POST /api/confirm-payment')[0]?.body).toEqual({
      paymentIntentId: INTENT.paymentIntentId,
      amount: '25.00',
    });
  });
});

describe('docs/product.md#messages card messages', () => {
  const cases: [string, PaymentRoutes, ConfirmWithProvider, string, string][] = [
    [
      'the service is down (503)',
      {
        'POST /api/create-payment-intent': () =>
          jsonResponse(503, {
            code: 'SERVICE_UNAVAILABLE',
            message: 'Payment service is currently unavailable. Please try again later.',
          }),
      },
      paid,
      'PAYMENT SERVICE ERROR',
      'Payment service is currently unavailable. Please try again later.',
    ],
    [
      'the answer has no clientSecret',
      {
        'POST /api/create-payment-intent': () =>
          jsonResponse(200, { paymentIntentId: INTENT.paymentIntentId }),
      },
      paid,
      'PAYMENT SERVICE ERROR',
      'Invalid payment configuration received from server',
    ],
    [
      'the server cannot be reached',
      {
        'POST /api/create-payment-intent': () => {
          throw new TypeError('Failed to fetch');
        },
      },
      paid,
      'PAYMENT SERVICE ERROR',
      'Failed to initialize payment',
    ],
    [
      'the server refuses the amount',
      {
        'POST /api/create-payment-intent': () =>
          jsonResponse(400, {
            code: 'VALIDATION_FAILED',
            message: 'Minimum deposit amount is $10.',
            fields: { amount: 'Minimum deposit amount is $10.' },
          }),
      },
      paid,
      'PAYMENT SERVICE ERROR',
      'Minimum deposit amount is $10.',
    ],
    [
      'the provider declines the card',
      {},
      () => Promise.resolve({ kind: 'failed', message: 'Your card was declined.' }),
      'PAYMENT FAILED',
      'Your card was declined.',
    ],
    [
      'the provider did not finish the payment',
      {},
      () => Promise.resolve({ kind: 'incomplete' }),
      'PAYMENT INCOMPLETE',
      'The payment process was not completed. Please try again.',
    ],
    [
      'the provider throws',
      {},
      () => Promise.reject(new Error('Stripe.js crashed')),
      'ERROR',
      'An unexpected error occurred during payment processing',
    ],
    [
      'the server finds the payment not completed (409)',
      {
        'POST /api/confirm-payment': () =>
          jsonResponse(409, {
            code: 'PAYMENT_NOT_COMPLETED',
            message: 'The payment process was not completed. Please try again.',
          }),
      },
      paid,
      'PAYMENT INCOMPLETE',
      'The payment process was not completed. Please try again.',
    ],
    [
      'the payment succeeded but the credit failed',
      {
        'POST /api/confirm-payment': () =>
          jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong' }),
      },
      paid,
      'BALANCE UPDATE FAILED',
      "Payment was successful but we couldn't update your balance. Please contact support.",
    ],
  ];

  it.each(cases)('when %s', async (_case, routes, provider, title, message) => {
    serve(routes);
    await expect(depositByCard(2500n, provider)).resolves.toEqual({
      kind: 'failed',
      title,
      message,
    });
  });

  it('does not ask the provider when no intent could be opened, nor credit a failed payment', async () => {
    const api = serve({
      'POST /api/create-payment-intent': () =>
        jsonResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' }),
    });
    const provider = vi.fn<ConfirmWithProvider>(paid);
    await depositByCard(2500n, provider);
    expect(provider).not.toHaveBeenCalled();

    await depositByCard(2500n, () => Promise.resolve({ kind: 'failed', message: 'Declined' }));
    expect(api.requestsTo('POST /api/confirm-payment')).toHaveLength(0);
  });
});

describe('the sandbox card provider', () => {
  it('pays with the card number and reports the intent', async () => {
    const api = stubPaymentsApi({
      'POST /api/sandbox/card/confirm': () =>
        jsonResponse(200, { paymentIntentId: 'pi_3Abc', status: 'succeeded' }),
    });
    await expect(confirmWithSandboxCard('4242424242424242')('pi_3Abc_secret_x')).resolves.toEqual({
      kind: 'succeeded',
      paymentIntentId: 'pi_3Abc',
    });
    expect(api.requestsTo('POST /api/sandbox/card/confirm')[0]?.body).toEqual({
      clientSecret: 'pi_3Abc_secret_x',
      cardNumber: '4242424242424242',
    });
  });

  it('turns a refusal into a failure with the provider’s words, and lets a server fault through', async () => {
    stubPaymentsApi({
      'POST /api/sandbox/card/confirm': () =>
        jsonResponse(402, {
          code: 'PAYMENT_DECLINED',
          message: 'Your card number is incorrect.',
        }),
    });
    await expect(confirmWithSandboxCard('1234123412341234')('pi_1_secret_x')).resolves.toEqual({
      kind: 'failed',
      message: 'Your card number is incorrect.',
    });

    stubPaymentsApi({
      'POST /api/sandbox/card/confirm': () =>
        jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong' }),
    });
    await expect(confirmWithSandboxCard('4242424242424242')('pi_1_secret_x')).rejects.toThrow(
      '500: Something went wrong',
    );
  });
});
