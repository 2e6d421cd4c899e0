import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { PublicUser } from '#shared/contracts/auth.ts';
import {
  PAYOUT_DETAILS_PLACEHOLDER,
  PAYOUT_MESSAGES,
  type PayoutView,
} from '#shared/contracts/payouts.ts';
import { CARD_REFUND_MESSAGES, type CardRefundView } from '#shared/contracts/card-refunds.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { FakeWebSocket } from '#client/test-utils/fake-web-socket.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import { makePayout } from '#client/test-utils/payouts.ts';
import {
  jsonResponse,
  makeUser,
  renderApp,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';
import { findToast } from '#client/test-utils/toasts.ts';

// The route is a lazily loaded chunk; loading it once here keeps the first test's wait short.
beforeAll(async () => {
  await import('#client/app/routes/payouts.tsx');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const PAYOUT_OPTIONS = {
  mode: 'sandbox',
  coins: [
    { code: 'usdttrc20', label: 'USDT (TRON)', memoLabel: null },
    { code: 'btc', label: 'Bitcoin (BTC)', memoLabel: null },
    { code: 'xrp', label: 'XRP', memoLabel: 'Destination tag' },
  ],
};

interface Limits {
  available: number;
  withdrawable: number;
  refundableToCard: number;
}

interface PayoutServer {
  user?: PublicUser;
  /** GET /api/payouts/limits; absent, the server does not know it (an older one). */
  limits?: Limits | (() => Limits);
  /** The history the server holds at the time of each request. */
  payouts?: () => PayoutView[];
  onRequest?: FetchHandler;
  /** POST /api/payouts/card-refund */
  onRefund?: FetchHandler;
  cardRefunds?: () => CardRefundView[];
}

function serve({
  user = makeUser({ id: 1, balance: 40 }),
  payouts = () => [],
  onRequest = () => jsonResponse(201, { payout: makePayout({ id: 6, amount: 15 }), balance: 25 }),
  limits,
  onRefund = () => jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' }),
  cardRefunds = () => [],
}: PayoutServer = {}) {
  return stubFetch((request) => {
    const { path } = parseRequestUrl(request.url);
    if (path === '/api/user') return jsonResponse(200, user);
    if (path === '/api/payouts/limits' && limits) {
      const now = typeof limits === 'function' ? limits() : limits;
      return jsonResponse(200, { ...now, cardClearingHours: 72 });
    }
    if (path === '/api/payouts/options') return jsonResponse(200, PAYOUT_OPTIONS);
    if (path === '/api/payouts/card-refund') return onRefund(request);
    if (path === '/api/payouts/card-refunds') return jsonResponse(200, cardRefunds());
    if (request.method === 'POST' && path === '/api/payouts') return onRequest(request);
    if (path === '/api/payouts') return jsonResponse(200, payouts());
    return jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
}

function payoutPosts(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchMock.mock.calls.filter(
    ([input, init]) => String(input) === '/api/payouts' && init?.method === 'POST',
  );
}

async function openDialog() {
  const user = userEvent.setup();
  const view = renderApp('/payouts');
  await user.click(await screen.findByRole('button', { name: 'Request Payout' }));
  const dialog = await screen.findByRole('dialog', { name: 'Request Payout' });
  return { user, dialog, ...view };
}

/**
 * Fills the form: a coin address by default (docs/payouts.md), or, given `details`, the coin
 * select's "Other" and the SPEC's free-text details.
 */
async function fill(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  { amount = '15', details, address = TRON, phone }: Record<string, string | undefined> = {},
) {
  const amountBox = within(dialog).getByLabelText('Amount ($)');
  await user.clear(amountBox);
  if (amount) await user.type(amountBox, amount);
  const coin = within(dialog).getByLabelText('Coin');
  if (details !== undefined) {
    await user.selectOptions(coin, 'Other (describe below)');
    const detailsBox = within(dialog).getByLabelText('Payment Details');
    await user.clear(detailsBox);
    if (details) await user.type(detailsBox, details);
  } else {
    await user.selectOptions(coin, 'USDT (TRON)');
    const addressBox = within(dialog).getByLabelText('USDT (TRON) address');
    await user.clear(addressBox);
    if (address) await user.type(addressBox, address);
  }
  if (phone !== undefined) {
    const phoneBox = within(dialog).getByLabelText('Phone Number');
    await user.clear(phoneBox);
    if (phone) await user.type(phoneBox, phone);
  }
}

const submitButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: /SUBMIT REQUEST|SUBMITTING/ });

describe('payouts page', () => {
  it('shows the available balance and NO PAYOUT RECORDS FOUND without payouts', async () => {
    serve({ user: makeUser({ balance: 40 }) });
    renderApp('/payouts');

    expect(await screen.findByText('NO PAYOUT RECORDS FOUND')).toBeInTheDocument();
    const balanceCard = screen
      .getByRole('heading', { name: 'Available Balance' })
      .closest('section');
    expect(balanceCard).toHaveTextContent('$40.00');
  });

  it('lists each payout with amount, badge, method, details, phone, date and failure reason', async () => {
    serve({
      payouts: () => [
        makePayout({ id: 3, amount: 20, status: 'pending' }),
        makePayout({
          id: 2,
          amount: 7.5,
          status: 'completed',
          completedAt: '2025-03-15T09:30:00.000Z',
        }),
        makePayout({
          id: 1,
          amount: 5,
          status: 'failed',
          failureReason: 'The address was not valid',
          createdAt: 'not a date',
        }),
      ],
    });
    renderApp('/payouts');

    const list = await screen.findByRole('list', { name: 'Payout history' });
    const [pending, completed, failed] = within(list).getAllByRole('article');
    expect(pending).toHaveAccessibleName('Payout of $20.00');
    expect(within(pending!).getByText('PROCESSING')).toBeInTheDocument();
    expect(pending).toHaveTextContent('Crypto');
    expect(pending).toHaveTextContent('BTC bc1qexampleaddress');
    expect(pending).toHaveTextContent('+1 555 123 4567');
    expect(pending).toHaveTextContent(/Mar 14, 2025/);

    expect(within(completed!).getByText('COMPLETED')).toBeInTheDocument();
    expect(completed).toHaveTextContent('$7.50');

    expect(within(failed!).getByText('FAILED')).toBeInTheDocument();
    expect(failed).toHaveTextContent('The address was not valid');
    expect(failed).toHaveTextContent('RequestedN/A');
  });
});

describe('payout stages (docs/payouts.md)', () => {
  it('shows why a payout waits, the coins and transaction of a sent one, and how long one took', async () => {
    serve({
      payouts: () => [
        makePayout({ id: 9, amount: 600, stage: 'review', stageReason: 'over $500' }),
        makePayout({
          id: 8,
          stage: 'sent',
          stageReason: null,
          currency: 'usdttrc20',
          coinAmount: '20',
          coinRate: '1',
          txHash: 'ab'.repeat(32),
          explorerUrl: `https://tronscan.org/#/transaction/${'ab'.repeat(32)}`,
        }),
        makePayout({
          id: 7,
          status: 'completed',
          stage: 'completed',
          stageReason: null,
          createdAt: '2025-03-14T12:00:00.000Z',
          completedAt: '2025-03-14T12:01:30.000Z',
        }),
      ],
    });
    renderApp('/payouts');
    const list = await screen.findByRole('list', { name: 'Payout history' });
    const [waiting, sent, done] = within(list).getAllByRole('article');
    expect(waiting).toHaveTextContent('Waiting for review: over $500');
    expect(within(waiting!).getByText('PROCESSING')).toBeInTheDocument();
    expect(sent).toHaveTextContent('20 USDTTRC20 at 1 per $1');
    expect(within(sent!).getByRole('link', { name: 'ab'.repeat(32) })).toHaveAttribute(
      'href',
      `https://tronscan.org/#/transaction/${'ab'.repeat(32)}`,
    );
    expect(done).toHaveTextContent('Took1 min 30 s');
  });
});

describe('payout history, live', () => {
  it('shows a payout the operator failed as soon as its amount comes back to the balance', async () => {
    let payouts = [makePayout({ id: 3, amount: 20 })];
    const user = makeUser({ id: 1, balance: 20 });
    serve({ user, payouts: () => payouts });
    renderApp('/payouts');
    const list = await screen.findByRole('list', { name: 'Payout history' });
    expect(within(list).getByText('PROCESSING')).toBeInTheDocument();
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    const socket = FakeWebSocket.latest();
    act(() => socket.serverOpen());

    // The operator fails it on the server, which reads it back from then on, then tells the socket.
    payouts = [makePayout({ id: 3, amount: 20, status: 'failed', failureReason: 'Bad address' })];
    user.balance = 40;
    act(() => socket.serverSend({ type: 'BALANCE_UPDATE', userId: 1, newBalance: 40 }));

    expect(await within(list).findByText('FAILED')).toBeInTheDocument();
    expect(list).toHaveTextContent('Bad address');
    expect(screen.getAllByTitle('$ Blue Coins')[0]).toHaveTextContent('$40.00');
  });
});

describe('payout stages, live', () => {
  it('moves a payout on through its stages as its notifications arrive, without a reload', async () => {
    let payouts = [makePayout({ id: 4, stage: 'queued', stageReason: null })];
    serve({ payouts: () => payouts });
    renderApp('/payouts');
    const list = await screen.findByRole('list', { name: 'Payout history' });
    expect(list).toHaveTextContent('Queued');
    await waitFor(() => expect(FakeWebSocket.instances).toHaveLength(1));
    const socket = FakeWebSocket.latest();
    act(() => socket.serverOpen());

    payouts = [makePayout({ id: 4, stage: 'sent', stageReason: null, txHash: 'cd'.repeat(32) })];
    act(() =>
      socket.serverSend({
        type: 'NOTIFICATION',
        notification: {
          id: 11,
          kind: 'payout_update',
          challengeId: null,
          title: 'Your payout of $15.00 is on the chain',
          body: 'Payout #4 of $15.00 has left.',
          createdAt: '2025-03-14T12:00:30.000Z',
          read: false,
        },
      }),
    );
    expect(await within(list).findByText('Sent')).toBeInTheDocument();
    expect(list).toHaveTextContent('cd'.repeat(32));
  });
});

describe('request payout dialog', () => {
  it('offers only crypto, asks for the coin and address, prefills the phone', async () => {
    serve();
    const { dialog } = await openDialog();

    const method = within(dialog).getByLabelText('Payment Method');
    expect(method).toHaveValue('crypto');
    expect(
      within(method)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Crypto']);
    const coin = within(dialog).getByLabelText('Coin');
    expect(
      within(coin)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['USDT (TRON)', 'Bitcoin (BTC)', 'XRP', 'Other (describe below)']);
    expect(within(dialog).getByLabelText('USDT (TRON) address')).toHaveValue('');
    expect(within(dialog).queryByLabelText('Payment Details')).not.toBeInTheDocument();
    // A coin that needs a destination tag asks for it.
    await userEvent.setup().selectOptions(coin, 'XRP');
    expect(within(dialog).getByLabelText('Destination tag')).toBeInTheDocument();
    // "Other" is the SPEC's free text, with its placeholder; an admin sends it by hand.
    await userEvent.setup().selectOptions(coin, 'Other (describe below)');
    expect(within(dialog).getByLabelText('Payment Details')).toHaveAttribute(
      'placeholder',
      PAYOUT_DETAILS_PLACEHOLDER,
    );
    expect(within(dialog).getByLabelText('Phone Number')).toHaveValue('+1 555 123 4567');
    const amount = within(dialog).getByLabelText('Amount ($)');
    expect(amount).toHaveAttribute('min', '1.00');
    expect(amount).toHaveAttribute('max', '40.00');
  });

  it('checks the SPEC rules in their words and sends nothing until they hold', async () => {
    const fetchMock = serve();
    const { user, dialog } = await openDialog();
    const amount = within(dialog).getByLabelText('Amount ($)');

    await fill(user, dialog, { amount: '', details: '', phone: '12345' });
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByText(PAYOUT_MESSAGES.amountRequired)).toBeVisible();
    expect(within(dialog).getByText(PAYOUT_MESSAGES.detailsRequired)).toBeVisible();
    expect(within(dialog).getByText('Phone number must be at least 10 digits')).toBeVisible();

    await fill(user, dialog, { amount: '0', phone: '+1 555 123 4567' });
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByText(PAYOUT_MESSAGES.amountPositive)).toBeVisible();

    await fill(user, dialog, { amount: '0.5' });
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByText(PAYOUT_MESSAGES.amountMin)).toBeVisible();

    // Above the balance, reported together with any other field's message.
    await fill(user, dialog, { amount: '40.01', details: '' });
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByText(PAYOUT_MESSAGES.insufficientBalance)).toBeVisible();
    expect(amount).toHaveAccessibleDescription(
      expect.stringContaining(PAYOUT_MESSAGES.insufficientBalance),
    );
    expect(within(dialog).getByText(PAYOUT_MESSAGES.detailsRequired)).toBeVisible();

    expect(payoutPosts(fetchMock)).toHaveLength(0);
  });

  it('requests the payout as crypto, toasts, updates the balance and the history', async () => {
    let payouts: PayoutView[] = [];
    const fetchMock = serve({
      payouts: () => payouts,
      onRequest: () => {
        payouts = [makePayout({ id: 6, amount: 15 })];
        return jsonResponse(201, { payout: payouts[0], balance: 25 });
      },
    });
    const { user, dialog, queryClient } = await openDialog();

    await fill(user, dialog, { amount: '15' });
    await user.click(submitButton(dialog));

    expect(await findToast('PAYOUT REQUESTED')).toHaveTextContent('$15.00');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(JSON.parse(String(payoutPosts(fetchMock)[0]?.[1]?.body))).toEqual({
      amount: '15.00',
      paymentMethod: 'crypto',
      phoneNumber: '+1 555 123 4567',
      currency: 'usdttrc20',
      address: TRON,
    });
    expect(queryClient.getQueryData(userQueryKey)).toMatchObject({ balance: 25 });
    const list = await screen.findByRole('list', { name: 'Payout history' });
    expect(within(list).getByText('PROCESSING')).toBeInTheDocument();
  });

  it('forgets a destination tag typed for another coin', async () => {
    const fetchMock = serve();
    const { user, dialog } = await openDialog();
    await user.selectOptions(within(dialog).getByLabelText('Coin'), 'XRP');
    await user.type(within(dialog).getByLabelText('Destination tag'), '12345');
    await fill(user, dialog, { amount: '15' });
    await user.click(submitButton(dialog));
    await findToast('PAYOUT REQUESTED');
    expect(JSON.parse(String(payoutPosts(fetchMock)[0]?.[1]?.body))).not.toHaveProperty('extraId');
  });

  it('sends one request however often the button is pressed while it is on its way', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = serve({ onRequest: () => new Promise<Response>((r) => (answer = r)) });
    const { user, dialog } = await openDialog();

    await fill(user, dialog);
    await user.click(submitButton(dialog));
    const busy = await within(dialog).findByRole('button', { name: 'SUBMITTING...' });
    expect(busy).toBeDisabled();
    await user.click(busy);
    await user.keyboard('{Enter}');

    expect(payoutPosts(fetchMock)).toHaveLength(1);
    act(() => answer(jsonResponse(201, { payout: makePayout({ id: 6 }), balance: 25 })));
    expect(await findToast('PAYOUT REQUESTED')).toBeInTheDocument();
  });

  it('toasts PAYOUT FAILED with the server message and shows field errors under the field', async () => {
    serve({
      onRequest: () =>
        jsonResponse(400, {
          code: 'INSUFFICIENT_BALANCE',
          message: PAYOUT_MESSAGES.insufficientBalance,
          fields: { amount: PAYOUT_MESSAGES.insufficientBalance },
        }),
    });
    const { user, dialog } = await openDialog();

    await fill(user, dialog);
    await user.click(submitButton(dialog));

    expect(await findToast('PAYOUT FAILED')).toHaveTextContent(
      `400: ${PAYOUT_MESSAGES.insufficientBalance}`,
    );
    // The toast shows as the request fails; the field errors follow once the request has settled.
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Amount ($)')).toHaveAccessibleDescription(
        expect.stringContaining(PAYOUT_MESSAGES.insufficientBalance),
      ),
    );
    expect(screen.getByRole('dialog', { name: 'Request Payout' })).toBeInTheDocument();
  });

  it('toasts the generic PAYOUT FAILED message when no answer comes back', async () => {
    serve({ onRequest: () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user, dialog } = await openDialog();

    await fill(user, dialog);
    await user.click(submitButton(dialog));

    expect(await findToast('PAYOUT FAILED')).toHaveTextContent(
      'An error occurred while processing your payout',
    );
  });

  it('cannot be opened with less than the $1 minimum', async () => {
    serve({ user: makeUser({ balance: 0.5 }) });
    renderApp('/payouts');

    expect(await screen.findByRole('button', { name: 'Request Payout' })).toBeDisabled();
    expect(screen.getByText(/You need at least \$1\.00/)).toBeInTheDocument();
  });

  it('shows the way to the licence upload when an approved ID is still needed (docs/responsible-play.md)', async () => {
    serve({
      onRequest: () =>
        jsonResponse(403, {
          code: 'IDENTITY_NOT_VERIFIED',
          message: PAYOUT_MESSAGES.identityRequired,
        }),
    });
    const { user, dialog, history } = await openDialog();
    await fill(user, dialog);
    await user.click(submitButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(PAYOUT_MESSAGES.identityRequired);
    expect(await findToast('PAYOUT FAILED')).toHaveTextContent(PAYOUT_MESSAGES.identityRequired);
    await user.click(within(alert).getByRole('link', { name: "Upload your driver's licence" }));
    await waitFor(() => expect(history.at(-1)).toBe('/profile'));
  });

  it('says under the amount what the 24-hour limit still allows', async () => {
    const message = PAYOUT_MESSAGES.dailyLimit('$2,500.00', '$500.00');
    serve({
      onRequest: () =>
        jsonResponse(400, { code: 'PAYOUT_LIMIT_EXCEEDED', message, fields: { amount: message } }),
    });
    const { user, dialog } = await openDialog();
    await fill(user, dialog);
    await user.click(submitButton(dialog));

    await waitFor(() =>
      expect(within(dialog).getByLabelText('Amount ($)')).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says how much is withdrawable and how much goes back to the card, and the refusal', async () => {
    const message =
      '$30.00 of your balance came by card and can only be refunded to that card for now.';
    serve({
      limits: { available: 40, withdrawable: 10, refundableToCard: 30 },
      onRequest: () =>
        jsonResponse(400, { code: 'CARD_MONEY', message, fields: { amount: message } }),
    });
    const { user, dialog } = await openDialog();
    expect(
      await within(dialog).findByText(
        'Withdrawable now: $10.00. Refundable to your card: $30.00, which came by card and clears once it is 72 hours old and played through.',
      ),
    ).toBeVisible();
    await fill(user, dialog, { amount: '15' });
    await user.click(submitButton(dialog));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Amount ($)')).toHaveAccessibleDescription(
        expect.stringContaining(message),
      ),
    );
  });

  it('refunds card money to the card from REFUND TO CARD, toasts and lists the refund', async () => {
    let refunds: CardRefundView[] = [];
    let limits = { available: 40, withdrawable: 10, refundableToCard: 30 };
    const fetchMock = serve({
      limits: () => limits,
      cardRefunds: () => refunds,
      onRefund: () => {
        refunds = [
          {
            id: 3,
            amount: 30,
            status: 'pending',
            failureReason: null,
            createdAt: '2026-11-28T18:00:00.000Z',
            completedAt: null,
          },
        ];
        limits = { available: 10, withdrawable: 10, refundableToCard: 0 };
        return jsonResponse(201, {
          refunds,
          balance: 10,
          message: CARD_REFUND_MESSAGES.requested('$30.00'),
        });
      },
    });
    const user = userEvent.setup();
    renderApp('/payouts');
    expect(
      await screen.findByText('$30.00 came by card and can go back to that card now.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'REFUND TO CARD' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund to Card' });
    expect(within(dialog).getByLabelText('Amount ($)')).toHaveValue(30);
    await user.click(within(dialog).getByRole('button', { name: 'REFUND TO CARD' }));
    expect(await findToast('REFUND REQUESTED')).toHaveTextContent(
      CARD_REFUND_MESSAGES.requested('$30.00'),
    );
    const sent = fetchMock.mock.calls.find(
      ([input]) => String(input) === '/api/payouts/card-refund',
    );
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ amount: '30.00' });
    // A key per opening of the dialog: a resend is answered with the first refunds.
    expect(new Headers(sent?.[1]?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/);
    const list = await screen.findByRole('region', { name: 'Card Refunds' });
    expect(within(list).getByText('On its way')).toBeVisible();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'REFUND TO CARD' })).not.toBeInTheDocument(),
    );
    // Its button gone, focus moves to what the card still offers rather than the page body.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Request Payout' })).toHaveFocus(),
    );
  });

  it('shows the refusal of more than the card money under the amount', async () => {
    const message = CARD_REFUND_MESSAGES.tooMuch('$30.00');
    serve({
      limits: { available: 40, withdrawable: 10, refundableToCard: 30 },
      onRefund: () =>
        jsonResponse(400, { code: 'VALIDATION_FAILED', message, fields: { amount: message } }),
    });
    const user = userEvent.setup();
    renderApp('/payouts');
    await user.click(await screen.findByRole('button', { name: 'REFUND TO CARD' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund to Card' });
    const amount = within(dialog).getByLabelText('Amount ($)');
    await user.clear(amount);
    await user.type(amount, '31');
    await user.click(within(dialog).getByRole('button', { name: 'REFUND TO CARD' }));
    await waitFor(() =>
      expect(amount).toHaveAccessibleDescription(expect.stringContaining(message)),
    );
    expect(await findToast('REFUND FAILED')).toHaveTextContent(message);
  });
});
