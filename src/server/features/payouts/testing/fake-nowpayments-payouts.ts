import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { signNowPaymentsBody } from '../../payments/providers/nowpayments-signature.ts';
import { startHttpStub, type HttpStub, type StubReply } from '../../payments/testing/http-stub.ts';

export const FAKE_PAYOUT_ACCOUNT = {
  apiKey: 'PAY1OUT-2FAKE3-4KEY5-6ABC7',
  email: 'treasury@example.test',
  password: 'correct horse battery staple',
  twoFactorSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
} as const;

/** A withdrawal as NOWPayments' payout API writes it. */
export interface FakeWithdrawal {
  id: string;
  batch_withdrawal_id: string;
  status: string;
  currency: string;
  amount: string;
  address: string;
  extra_id: string | null;
  hash: string | null;
  error: string | null;
  unique_external_id: string | null;
  created_at: string;
  requested_at: string | null;
  updated_at: string;
}

/** The payout API's routes, by the names a test injects failures under. */
export type FakePayoutRoute =
  'auth' | 'validate' | 'estimate' | 'balance' | 'list' | 'get' | 'create' | 'verify';

/**
 * What the next call of a route does instead of answering: answer this, hang up without doing
 * anything, or do the work and then hang up (the answer lost on its way back) or never answer
 * (the caller killed while it waits: a crash after the provider acted).
 */
export type FakeFailure = StubReply | 'hang-up' | 'act-then-hang-up' | 'act-then-hold';

export interface FakeNowPaymentsPayouts extends HttpStub {
  withdrawals: Map<string, FakeWithdrawal>;
  /** The coin balances; a coin not listed has none. */
  balances: Map<string, number>;
  /** Dollars per coin, for estimates; a coin not listed costs a dollar. */
  prices: Map<string, number>;
  /** Failures queued per route, used one per call. */
  failures: Map<FakePayoutRoute, FakeFailure[]>;
  fail(route: FakePayoutRoute, ...failures: FakeFailure[]): void;
  /** How many withdrawals were made for an external id: the exactly-once count. */
  madeFor(externalId: string): number;
  setStatus(id: string, status: string, hash?: string): FakeWithdrawal;
  /** An IPN for the withdrawal as NOWPayments signs it. */
  ipn(id: string, secret: string): { body: string; signature: string };
  /** The codes verify accepted, in order. */
  codesAccepted: string[];
}

const problem = (status: number, code: string, message: string): StubReply => ({
  status,
  body: { status: false, statusCode: status, code, message },
});

export const PAYOUT_FAILURES = {
  serverError: problem(500, 'INTERNAL_ERROR', 'Internal server error'),
  badGateway: { status: 502, body: '<html>Bad gateway</html>' },
  badAddress: problem(400, 'INVALID_REQUEST_PARAMS', 'Invalid payout_address'),
} as const;

/**
 * A local NOWPayments payout API (docs/payouts.md) speaking its wire format: a JWT from `/v1/auth`,
 * `x-api-key` on every call, withdrawals `WAITING` until `/verify` gets a valid TOTP code of the
 * account's secret, then `PROCESSING`; the test moves them on with `setStatus`.
 */
export async function startFakeNowPaymentsPayouts(): Promise<FakeNowPaymentsPayouts> {
  const withdrawals = new Map<string, FakeWithdrawal>();
  const tokens = new Set<string>();
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(FAKE_PAYOUT_ACCOUNT.twoFactorSecret),
  });
  const fake = {
    withdrawals,
    balances: new Map<string, number>([
      ['usdttrc20', 100_000],
      ['btc', 10],
      ['eth', 100],
      ['ltc', 1000],
    ]),
    prices: new Map<string, number>([
      ['btc', 60_000],
      ['eth', 3_000],
      ['ltc', 80],
    ]),
    failures: new Map<FakePayoutRoute, FakeFailure[]>(),
    codesAccepted: [] as string[],
  } as FakeNowPaymentsPayouts;

  function routeOf(method: string, path: string): FakePayoutRoute | null {
    if (method === 'POST' && path === '/v1/auth') return 'auth';
    if (method === 'POST' && path === '/v1/payout/validate-address') return 'validate';
    if (method === 'GET' && path.startsWith('/v1/estimate?')) return 'estimate';
    if (method === 'GET' && path === '/v1/balance') return 'balance';
    if (method === 'GET' && path.startsWith('/v1/payout?')) return 'list';
    if (method === 'POST' && path === '/v1/payout') return 'create';
    if (method === 'POST' && /^\/v1\/payout\/\d+\/verify$/.test(path)) return 'verify';
    if (method === 'GET' && /^\/v1\/payout\/\d+$/.test(path)) return 'get';
    return null;
  }

  function authorized(headers: Record<string, string | string[] | undefined>): boolean {
    const bearer = String(headers.authorization ?? '').replace(/^Bearer /, '');
    return tokens.has(bearer);
  }

  const stub = await startHttpStub((request) => {
    const route = routeOf(request.method, request.path);
    if (!route) return problem(404, 'NOT_FOUND', 'Not found');
    if (request.headers['x-api-key'] !== FAKE_PAYOUT_ACCOUNT.apiKey) {
      return problem(403, 'INVALID_API_KEY', 'Invalid api key');
    }
    const failure = fake.failures.get(route)?.shift();
    if (failure && failure !== 'act-then-hang-up' && failure !== 'act-then-hold') return failure;
    const reply = answer(route, request.path, request.body, request.headers);
    if (failure === 'act-then-hang-up') return 'hang-up';
    return failure === 'act-then-hold' ? 'hold' : reply;
  });

  function answer(
    route: FakePayoutRoute,
    path: string,
    body: string,
    headers: Record<string, string | string[] | undefined>,
  ): StubReply {
    const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const query = new URL(path, 'http://fake').searchParams;
    switch (route) {
      case 'auth': {
        if (
          input.email !== FAKE_PAYOUT_ACCOUNT.email ||
          input.password !== FAKE_PAYOUT_ACCOUNT.password
        ) {
          return problem(401, 'AUTH_REQUIRED', 'Invalid credentials');
        }
        const token = `jwt-${randomInt(10 ** 9, 10 ** 10 - 1)}`;
        tokens.add(token);
        return { status: 200, body: { token } };
      }
      case 'validate': {
        const address = String(input.address ?? '');
        return address.includes('Bad') || address.length < 20
          ? problem(400, 'BAD_CREATE_WITHDRAWAL_REQUEST', `Invalid payout_address: ${address}`)
          : { status: 200, body: 'OK' };
      }
      case 'estimate': {
        const amount = Number(query.get('amount'));
        const price = fake.prices.get(String(query.get('currency_to'))) ?? 1;
        return {
          status: 200,
          body: {
            currency_from: 'usd',
            amount_from: amount,
            currency_to: query.get('currency_to'),
            estimated_amount: (amount / price).toFixed(8),
          },
        };
      }
      case 'balance':
        return {
          status: 200,
          body: Object.fromEntries(
            [...fake.balances].map(([coin, amount]) => [coin, { amount, pendingAmount: 0 }]),
          ),
        };
      case 'list': {
        if (!authorized(headers)) return problem(401, 'AUTH_REQUIRED', 'Authorization required');
        const from = new Date(query.get('date_from') ?? 0).getTime();
        const limit = Number(query.get('limit') ?? 10);
        const page = Number(query.get('page') ?? 0);
        const rows = [...withdrawals.values()]
          .filter((row) => new Date(row.created_at).getTime() >= from)
          .reverse()
          .slice(page * limit, (page + 1) * limit);
        return { status: 200, body: { payouts: rows } };
      }
      case 'get': {
        if (!authorized(headers)) return problem(401, 'AUTH_REQUIRED', 'Authorization required');
        const batch = path.split('/')[3];
        const rows = [...withdrawals.values()].filter((row) => row.batch_withdrawal_id === batch);
        return rows.length === 0
          ? problem(404, 'NOT_FOUND', 'Payout not found')
          : { status: 200, body: rows };
      }
      case 'create': {
        if (!authorized(headers)) return problem(401, 'AUTH_REQUIRED', 'Authorization required');
        const batchId = String(randomInt(5_000_000_000, 5_999_999_999));
        const now = new Date().toISOString();
        const made = (input.withdrawals as Array<Record<string, unknown>>).map((row) => {
          const withdrawal: FakeWithdrawal = {
            id: String(randomInt(6_000_000_000, 6_999_999_999)),
            batch_withdrawal_id: batchId,
            status: 'WAITING',
            currency: String(row.currency),
            amount: String(row.amount),
            address: String(row.address),
            extra_id: row.extra_id ? String(row.extra_id) : null,
            hash: null,
            error: null,
            unique_external_id: row.unique_external_id ? String(row.unique_external_id) : null,
            created_at: now,
            requested_at: null,
            updated_at: now,
          };
          withdrawals.set(withdrawal.id, withdrawal);
          return withdrawal;
        });
        return { status: 200, body: { id: batchId, withdrawals: made } };
      }
      case 'verify': {
        if (!authorized(headers)) return problem(401, 'AUTH_REQUIRED', 'Authorization required');
        const batch = path.split('/')[3];
        const code = String(input.verification_code ?? '');
        if (totp.validate({ token: code, window: 1 }) === null) {
          return problem(400, 'INVALID_CODE', 'Invalid verification code');
        }
        const rows = [...withdrawals.values()].filter(
          (row) => row.batch_withdrawal_id === batch && row.status === 'WAITING',
        );
        if (rows.length === 0) return problem(400, 'ALREADY_VERIFIED', 'Nothing to verify');
        fake.codesAccepted.push(code);
        for (const row of rows) row.status = 'PROCESSING';
        return { status: 200, body: 'OK' };
      }
    }
  }

  fake.fail = (route, ...failures) => {
    fake.failures.set(route, [...(fake.failures.get(route) ?? []), ...failures]);
  };
  fake.madeFor = (externalId) =>
    [...withdrawals.values()].filter((row) => row.unique_external_id === externalId).length;
  fake.setStatus = (id, status, hash) => {
    const row = withdrawals.get(id);
    if (!row) throw new Error(`no fake withdrawal ${id}`);
    row.status = status;
    if (hash) row.hash = hash;
    row.updated_at = new Date().toISOString();
    return row;
  };
  fake.ipn = (id, secret) => {
    const row = withdrawals.get(id);
    if (!row) throw new Error(`no fake withdrawal ${id}`);
    return { body: JSON.stringify(row), signature: signNowPaymentsBody(row, secret) };
  };
  return Object.assign(fake, stub);
}
