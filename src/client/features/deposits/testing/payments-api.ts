import type {
  CryptoPaymentResponse,
  CryptoStatusResponse,
  PaymentsConfig,
} from '#shared/contracts/payments.ts';
import { parseRequestUrl } from '#client/test-utils/challenges.ts';
import {
  jsonResponse,
  makeUser,
  stubFetch,
  type FetchHandler,
} from '#client/test-utils/render-app.tsx';

export const SANDBOX_CONFIG: PaymentsConfig = {
  card: { enabled: true, mode: 'sandbox', publishableKey: null },
  crypto: { enabled: true, mode: 'sandbox', payCurrency: 'btc' },
};

export const CRYPTO_CONFIGURED: CryptoStatusResponse = {
  isConfigured: true,
  publicKeyPattern: null,
};

export const SANDBOX_ADDRESS = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

export function makeCryptoPayment(
  overrides: Partial<CryptoPaymentResponse> = {},
): CryptoPaymentResponse {
  return {
    paymentId: '482913004417',
    paymentUrl: '/sandbox/crypto/482913004417',
    paymentAmount: 0.0005,
    paymentCurrency: 'btc',
    paymentStatus: 'waiting',
    paymentAddress: SANDBOX_ADDRESS,
    orderId: 'deposit-1-0011223344556677',
    qrCodeUrl: null,
    expirationTime: null,
    ...overrides,
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

/** `"POST /api/create-crypto-payment"`: the answer for a method and path, made fresh per call. */
export type PaymentRoutes = Record<string, (request: RecordedRequest) => Response>;

/**
 * Plays the payments API at the fetch boundary: the sandbox config, a configured crypto provider
 * and the signed-in user unless a route says otherwise; 404 for anything else. Every request is
 * recorded, so a test can prove a call was (or was never) made.
 */
export function stubPaymentsApi(routes: PaymentRoutes = {}) {
  const requests: RecordedRequest[] = [];
  const defaults: PaymentRoutes = {
    'GET /api/payments/config': () => jsonResponse(200, SANDBOX_CONFIG),
    'GET /api/crypto-status': () => jsonResponse(200, CRYPTO_CONFIGURED),
    'GET /api/user': () => jsonResponse(200, makeUser()),
  };
  const handler: FetchHandler = ({ method, url, body }) => {
    const { path } = parseRequestUrl(url);
    const request = { method, path, body };
    requests.push(request);
    const route = routes[`${method} ${path}`] ?? defaults[`${method} ${path}`];
    return route ? route(request) : jsonResponse(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  const fetchMock = stubFetch(handler);
  return {
    fetchMock,
    requests,
    /** The requests made to one method and path, oldest first. */
    requestsTo: (key: string) => requests.filter((r) => `${r.method} ${r.path}` === key),
  };
}
