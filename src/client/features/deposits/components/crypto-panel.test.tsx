import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import type { CryptoPaymentStatus } from '#shared/contracts/payments.ts';
// Loaded up front: should the app load its toaster lazily, fake timers cannot wait for the file.
import '#client/components/ui/toaster.tsx';
// The same for the reader of error bodies, which the API client loads with the first error.
import '#client/lib/error-body.ts';
import { visibleToasts } from '#client/test-utils/toasts.ts';
import { jsonResponse, renderInApp } from '#client/test-utils/render-app.tsx';
import {
  makeCryptoPayment,
  SANDBOX_ADDRESS,
  SANDBOX_CONFIG,
  stubPaymentsApi,
  type PaymentRoutes,
} from '../testing/payments-api.ts';
import { DepositFundsDialog } from './deposit-funds-dialog.tsx';

const PAYMENT_ID = '482913004417';
const CREATE = 'POST /api/create-crypto-payment';
const CHECK = `GET /api/check-crypto-payment/${PAYMENT_ID}`;
const NOTIFY = 'POST /api/crypto-deposit-notification';

/**
 * What the page put on the clipboard. user-event would stub the clipboard too, but its waits
 * (and Testing Library's) run on timers, which these tests fake: events are fired directly.
 */
let clipboardText = '';
/** window.open: the fallback's payment page. */
let opened: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.useFakeTimers();
  opened = vi.fn(() => null);
  vi.stubGlobal('open', opened);
  sessionStorage.clear();
  clipboardText = '';
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: (text: string) => {
        clipboardText = text;
        return Promise.resolve();
      },
    },
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  Reflect.deleteProperty(navigator, 'clipboard');
});

/** Lets `ms` of fake time pass, with every promise and render that it sets off. */
async function pass(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    // TanStack Query hands results to React on a zero-delay timer, which fake timers set 1 ms
    // ahead when it is scheduled while they run. A few extra milliseconds let such follow-ups
    // land; the assertions below leave margins far wider than that.
    for (let turn = 0; turn < 5; turn += 1) await vi.advanceTimersByTimeAsync(1);
  });
}

/** Answers each status check with the next of `statuses` (the last one repeats). */
function statusSequence(...statuses: CryptoPaymentStatus[]) {
  let index = 0;
  return () => {
    const status = statuses[Math.min(index, statuses.length - 1)];
    index += 1;
    return jsonResponse(200, { status });
  };
}

function serve(routes: PaymentRoutes = {}) {
  return stubPaymentsApi({
    [CREATE]: () =>
      jsonResponse(
        200,
        makeCryptoPayment({
          paymentId: PAYMENT_ID,
          paymentUrl: `/sandbox/crypto/${PAYMENT_ID}`,
          expirationTime: new Date(Date.now() + 10 * 60_000).toISOString(),
        }),
      ),
    [CHECK]: statusSequence('waiting'),
    [NOTIFY]: () =>
      jsonResponse(201, { paymentId: 'manual-1', status: 'pending', paymentUrl: null }),
    ...routes,
  });
}

/** Clicks a button in the dialog, then lets what it started settle. */
async function press(dialog: HTMLElement, name: string | RegExp) {
  fireEvent.click(within(dialog).getByRole('button', { name }));
  await pass();
}

async function openCryptoPanel() {
  renderInApp(<DepositFundsDialog />);
  fireEvent.click(screen.getByRole('button', { name: 'DEPOSIT FUNDS' }));
  const dialog = screen.getByRole('dialog', { name: /Deposit Funds/ });
  fireEvent.change(within(dialog).getByLabelText('Amount ($)'), { target: { value: '25' } });
  await press(dialog, 'CONTINUE');
  await press(dialog, /^Cryptocurrency/);
  return { dialog };
}

/** Opens the panel and lets the 1 s creation delay run out. */
async function openCreatedPayment() {
  const opened = await openCryptoPanel();
  await pass(1000);
  return opened;
}

const statusLine = (dialog: HTMLElement) => within(dialog).getByRole('status');

describe('deposit funds: creating the crypto payment', () => {
  it('waits 1 s before creating, then shows the amount, the address with its QR code and the time left', async () => {
    const api = serve();
    const { dialog } = await openCryptoPanel();

    expect(within(dialog).getByText('CREATING PAYMENT...')).toBeInTheDocument();
    await pass(900);
    expect(api.requestsTo(CREATE)).toHaveLength(0);
    await pass(100);
    expect(api.requestsTo(CREATE)).toHaveLength(1);
    expect(api.requestsTo(CREATE)[0]?.body).toEqual({ amount: '25.00' });

    expect(within(dialog).getByText('0.0005 BTC')).toBeInTheDocument();
    expect(within(dialog).getByText(SANDBOX_ADDRESS)).toBeInTheDocument();
    expect(
      within(dialog).getByRole('img', { name: 'QR code of the BTC payment address' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('timer')).toHaveTextContent('10:00');
    expect(within(dialog).getByText('TEST MODE')).toBeInTheDocument();
    const checkout = within(dialog).getByRole('link', { name: 'Open test checkout' });
    expect(checkout).toHaveAttribute('href', `/sandbox/crypto/${PAYMENT_ID}`);
    expect(checkout).toHaveAttribute('target', '_blank');
    expect(statusLine(dialog)).toHaveTextContent('WAITING FOR PAYMENT CONFIRMATION...');

    await pass(15_000);
    expect(within(dialog).getByRole('timer')).toHaveTextContent('9:45');
  });

  it('creates nothing when the panel is left within that second', async () => {
    const api = serve();
    const { dialog } = await openCryptoPanel();
    await pass(500);
    await press(dialog, 'CANCEL');
    await pass(5000);
    expect(api.requestsTo(CREATE)).toHaveLength(0);
    expect(within(dialog).getByLabelText('Amount ($)')).toBeInTheDocument();
  });

  it('says CRYPTOCURRENCY PAYMENTS UNAVAILABLE when crypto is not configured, and creates nothing', async () => {
    const api = serve({
      'GET /api/crypto-status': () =>
        jsonResponse(200, { isConfigured: false, publicKeyPattern: null }),
    });
    const { dialog } = await openCryptoPanel();
    await pass(2000);

    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent('CRYPTOCURRENCY PAYMENTS UNAVAILABLE');
    expect(api.requestsTo(CREATE)).toHaveLength(0);
  });

  it('shows the server’s wait for a 429, 60 s when it names none, and reports nothing', async () => {
    const api = serve({
      [CREATE]: () =>
        jsonResponse(429, {
          code: 'RATE_LIMITED',
          message: 'Too many payment requests. Please wait 42 seconds before trying again.',
          retryAfter: 42,
        }),
    });
    const { dialog } = await openCreatedPayment();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Too many payment requests. Please wait 42 seconds before trying again.',
    );

    serve({ [CREATE]: () => new Response('slow down', { status: 429 }) });
    await pass(5000);
    await press(dialog, 'TRY AGAIN');
    await pass(1000);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Too many payment requests. Please wait 60 seconds before trying again.',
    );
    expect(api.requestsTo(NOTIFY)).toHaveLength(0);
  });

  it('says DEPOSIT AMOUNT TOO SMALL when the coin network’s minimum is above the amount', async () => {
    serve({
      [CREATE]: () =>
        jsonResponse(400, {
          code: 'VALIDATION_FAILED',
          message: 'This amount is below the minimum the cryptocurrency network accepts.',
          fields: {
            amount: 'This amount is below the minimum the cryptocurrency network accepts.',
          },
        }),
    });
    const { dialog } = await openCreatedPayment();
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent('DEPOSIT AMOUNT TOO SMALL');
    expect(alert).toHaveTextContent(
      'This amount is below the minimum the cryptocurrency network accepts.',
    );
  });

  it('says ACCOUNT SUSPENDED with the server’s reason, and reports nothing', async () => {
    const message = 'Your account is suspended: Chargeback abuse';
    const api = serve({
      [CREATE]: () => jsonResponse(403, { code: 'ACCOUNT_SUSPENDED', message }),
    });
    const { dialog } = await openCreatedPayment();
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent('ACCOUNT SUSPENDED');
    expect(alert).toHaveTextContent(message);
    expect(api.requestsTo(NOTIFY)).toHaveLength(0);
  });

  it('falls back when the service fails: reports the deposit and toasts CRYPTO DEPOSIT INITIATED', async () => {
    const api = serve({ [CREATE]: () => jsonResponse(200, { paymentUrl: null }) });
    const { dialog } = await openCreatedPayment();

    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Invalid payment configuration received from server',
    );
    expect(api.requestsTo(NOTIFY).map((request) => request.body)).toEqual([
      { amount: '25.00', currency: 'btc' },
    ]);
    const [toast] = visibleToasts();
    expect(toast).toHaveTextContent('CRYPTO DEPOSIT INITIATED');
    expect(opened).not.toHaveBeenCalled();
  });

  it('names the coin the server is configured with in the fallback report', async () => {
    const api = serve({
      'GET /api/payments/config': () =>
        jsonResponse(200, {
          ...SANDBOX_CONFIG,
          crypto: { enabled: true, mode: 'nowpayments', payCurrency: 'ltc' },
        }),
      [CREATE]: () => jsonResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' }),
    });
    await openCreatedPayment();
    expect(api.requestsTo(NOTIFY).map((request) => request.body)).toEqual([
      { amount: '25.00', currency: 'ltc' },
    ]);
  });

  it('opens the operator’s payment page in a new window when the server gives one', async () => {
    const page = 'https://nowpayments.io/payment/?iid=5012345678';
    serve({
      [CREATE]: () => jsonResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' }),
      [NOTIFY]: () =>
        jsonResponse(201, { paymentId: 'manual-2', status: 'pending', paymentUrl: page }),
    });
    await openCreatedPayment();
    expect(opened).toHaveBeenCalledWith(page, '_blank', 'noopener,noreferrer');
  });

  it('never opens a page that is not https, whatever the server says', async () => {
    serve({
      [CREATE]: () => jsonResponse(503, { code: 'SERVICE_UNAVAILABLE', message: 'down' }),
      [NOTIFY]: () =>
        jsonResponse(201, {
          paymentId: 'manual-3',
          status: 'pending',
          paymentUrl: 'javascript:alert(1)',
        }),
    });
    await openCreatedPayment();
    expect(visibleToasts()[0]).toHaveTextContent('CRYPTO DEPOSIT INITIATED');
    expect(opened).not.toHaveBeenCalled();
  });

  it('refuses a new attempt within 5 s of a failure, in this tab’s session, then allows it', async () => {
    const api = serve({
      [CREATE]: () =>
        jsonResponse(503, {
          code: 'SERVICE_UNAVAILABLE',
          message:
            'Cryptocurrency payment service is currently unavailable. Please try again later.',
        }),
    });
    const { dialog } = await openCreatedPayment();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Cryptocurrency payment service is currently unavailable. Please try again later.',
    );
    expect(api.requestsTo(NOTIFY)).toHaveLength(1);

    await pass(3000);
    await press(dialog, 'TRY AGAIN');
    await pass(1000);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'SERVICE TEMPORARILY UNAVAILABLE. PLEASE WAIT A MOMENT BEFORE TRYING AGAIN.',
    );
    expect(api.requestsTo(CREATE)).toHaveLength(1);

    // Leaving and coming back does not get round it: the time is kept in sessionStorage.
    await press(dialog, 'CANCEL');
    await press(dialog, 'CONTINUE');
    await pass();
    await press(dialog, /^Cryptocurrency/);
    await pass(500);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('SERVICE TEMPORARILY UNAVAILABLE.');
    expect(api.requestsTo(CREATE)).toHaveLength(1);

    await pass(1000);
    await press(dialog, 'TRY AGAIN');
    await pass(1000);
    expect(api.requestsTo(CREATE)).toHaveLength(2);
  });
});

describe('deposit funds: watching the crypto payment', () => {
  it('checks every 15 s; on finished says PAYMENT CONFIRMED, toasts for 5 s and stops', async () => {
    const api = serve({ [CHECK]: statusSequence('waiting', 'confirming', 'finished') });
    const { dialog } = await openCreatedPayment();

    await pass(14_900);
    expect(api.requestsTo(CHECK)).toHaveLength(0);
    await pass(100);
    expect(api.requestsTo(CHECK)).toHaveLength(1);
    expect(statusLine(dialog)).toHaveTextContent('WAITING FOR PAYMENT CONFIRMATION...');
    await pass(15_000);
    expect(api.requestsTo(CHECK)).toHaveLength(2);
    expect(statusLine(dialog)).toHaveTextContent('WAITING FOR PAYMENT CONFIRMATION...');
    await pass(15_000);
    expect(api.requestsTo(CHECK)).toHaveLength(3);

    expect(statusLine(dialog)).toHaveTextContent('PAYMENT CONFIRMED');
    const [toast] = visibleToasts();
    expect(toast).toHaveTextContent('DEPOSIT SUCCESSFUL');
    expect(toast).toHaveTextContent('$25.00 has been added to your account.');
    expect(within(dialog).queryByRole('link', { name: 'Open test checkout' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'DONE' })).toBeInTheDocument();
    await pass(4800);
    expect(visibleToasts()).toHaveLength(1);
    await pass(300);
    expect(visibleToasts()).toHaveLength(0);

    await pass(60_000);
    expect(api.requestsTo(CHECK)).toHaveLength(3);
  });

  it('counts down a 429 from its retryAfter, resumes, then keeps the 15 s rhythm', async () => {
    let answerResumed: ((response: Response) => void) | undefined;
    let checks = 0;
    const api = serve({
      [CHECK]: () => {
        checks += 1;
        if (checks === 1) {
          return jsonResponse(429, {
            code: 'RATE_LIMITED',
            message: 'Too many payment requests. Please wait 3 seconds before trying again.',
            retryAfter: 3,
          });
        }
        if (checks === 2) {
          return new Promise<Response>((resolve) => {
            answerResumed = resolve;
          }) as unknown as Response;
        }
        return jsonResponse(200, { status: 'waiting' });
      },
    });
    const { dialog } = await openCreatedPayment();

    await pass(15_000);
    expect(statusLine(dialog)).toHaveTextContent('RATE LIMITED. RETRYING IN 3 SEC...');
    await pass(1000);
    expect(statusLine(dialog)).toHaveTextContent('RATE LIMITED. RETRYING IN 2 SEC...');
    await pass(1000);
    expect(statusLine(dialog)).toHaveTextContent('RATE LIMITED. RETRYING IN 1 SEC...');
    expect(api.requestsTo(CHECK)).toHaveLength(1);
    await pass(1000);
    expect(api.requestsTo(CHECK)).toHaveLength(2);
    expect(statusLine(dialog)).toHaveTextContent('RESUMING STATUS CHECKS...');

    answerResumed?.(jsonResponse(200, { status: 'waiting' }));
    await pass();
    expect(statusLine(dialog)).toHaveTextContent('WAITING FOR PAYMENT CONFIRMATION...');
    await pass(14_900);
    expect(api.requestsTo(CHECK)).toHaveLength(2);
    await pass(100);
    expect(api.requestsTo(CHECK)).toHaveLength(3);
  });

  it('counts down 30 s when a 429 names no wait', async () => {
    serve({ [CHECK]: () => new Response('', { status: 429 }) });
    const { dialog } = await openCreatedPayment();
    await pass(15_000);
    expect(statusLine(dialog)).toHaveTextContent('RATE LIMITED. RETRYING IN 30 SEC...');
  });

  it('says UNABLE TO CHECK PAYMENT STATUS when a check fails, and checks again 15 s later', async () => {
    let checks = 0;
    const api = serve({
      [CHECK]: () => {
        checks += 1;
        return checks === 1
          ? jsonResponse(502, { code: 'INTERNAL', message: 'Bad gateway' })
          : jsonResponse(200, { status: 'confirmed' });
      },
    });
    const { dialog } = await openCreatedPayment();

    await pass(15_000);
    expect(statusLine(dialog)).toHaveTextContent('UNABLE TO CHECK PAYMENT STATUS');
    await pass(15_000);
    expect(api.requestsTo(CHECK)).toHaveLength(2);
    expect(statusLine(dialog)).toHaveTextContent('PAYMENT CONFIRMED');
  });

  it('stops on expired with the PAYMENT EXPIRED toast, and offers a new payment', async () => {
    const api = serve({ [CHECK]: statusSequence('expired') });
    const { dialog } = await openCreatedPayment();

    await pass(15_000);
    expect(statusLine(dialog)).toHaveTextContent('PAYMENT EXPIRED');
    const [toast] = visibleToasts();
    expect(toast).toHaveTextContent('PAYMENT EXPIRED');
    expect(toast).toHaveTextContent('The payment window has expired. Please try again.');
    await pass(60_000);
    expect(api.requestsTo(CHECK)).toHaveLength(1);

    await press(dialog, 'NEW PAYMENT');
    await pass(1000);
    expect(api.requestsTo(CREATE)).toHaveLength(2);
  });

  it('stops checking when the dialog closes', async () => {
    const api = serve();
    const { dialog } = await openCreatedPayment();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await pass(60_000);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requestsTo(CHECK)).toHaveLength(0);
  });

  it('copies the address and the amount; each check mark turns back into a copy icon after 2 s', async () => {
    serve();
    const { dialog } = await openCreatedPayment();

    await press(dialog, 'Copy address');
    expect(clipboardText).toBe(SANDBOX_ADDRESS);
    expect(within(dialog).getByRole('button', { name: 'Address copied' })).toBeInTheDocument();
    await pass(1800);
    expect(within(dialog).getByRole('button', { name: 'Address copied' })).toBeInTheDocument();
    await pass(200);
    expect(within(dialog).getByRole('button', { name: 'Copy address' })).toBeInTheDocument();

    await press(dialog, 'Copy amount');
    expect(clipboardText).toBe('0.0005');
    expect(within(dialog).getByRole('button', { name: 'Amount copied' })).toBeInTheDocument();
    await pass(2000);
    expect(within(dialog).getByRole('button', { name: 'Copy amount' })).toBeInTheDocument();
  });
});
