import { Secret, TOTP } from 'otpauth';
import { centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import {
  createNowPaymentsClient,
  NowPaymentsError,
  PaymentProviderError,
} from '../../payments/index.ts';
import type { PayoutProvider, Withdrawal, WithdrawalState } from './types.ts';

export interface NowPaymentsPayoutOptions {
  apiKey: string;
  email: string;
  password: string;
  /** The base32 secret of the account's 2FA app, for the code that verifies each payout. */
  twoFactorSecret: string;
  /** Origin of the API, without `/v1`. */
  apiBase: string;
  /** Where NOWPayments sends payout IPNs. */
  ipnCallbackUrl?: string | undefined;
  timeoutMs?: number;
}

/** NOWPayments' JWT lives five minutes; one is reused for four. */
const TOKEN_REUSE_MS = 4 * 60_000;
/** How many pages of recent payouts a look-up by external id reads at most. */
const FIND_PAGES_MAX = 3;
const FIND_PAGE_SIZE = 100;

const STATES: Record<string, WithdrawalState> = {
  creating: 'unverified',
  waiting: 'unverified',
  processing: 'processing',
  sending: 'processing',
  finished: 'finished',
  failed: 'failed',
  rejected: 'failed',
};

const decimal = z.union([z.string(), z.number()]).transform(String);

/** One withdrawal as NOWPayments writes it in answers and in payout IPNs. */
export const nowWithdrawalSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  batch_withdrawal_id: z.union([z.string(), z.number()]).transform(String),
  status: z.string().transform((status) => status.toLowerCase()),
  currency: z.string(),
  amount: decimal,
  hash: z.string().nullish(),
  error: z.string().nullish(),
  unique_external_id: z.string().nullish(),
});
export type NowWithdrawal = z.infer<typeof nowWithdrawalSchema>;

export function toWithdrawal(raw: NowWithdrawal): Withdrawal {
  const state = STATES[raw.status];
  if (!state) {
    throw new PaymentProviderError(
      'unavailable',
      `NOWPayments sent an unknown status ${raw.status}`,
    );
  }
  return {
    id: raw.id,
    batchId: raw.batch_withdrawal_id,
    state,
    providerStatus: raw.status,
    currency: raw.currency.toLowerCase(),
    amount: raw.amount,
    hash: raw.hash ?? null,
    error: raw.error ?? null,
    externalId: raw.unique_external_id ?? null,
  };
}

const withdrawalsSchema = z.array(nowWithdrawalSchema);
/** A batch (creation, look-up) is written as `{id, withdrawals}`; a list as `{payouts}` or bare. */
const batchSchema = z.union([
  z.object({ withdrawals: withdrawalsSchema }).transform((body) => body.withdrawals),
  z.object({ payouts: withdrawalsSchema }).transform((body) => body.payouts),
  withdrawalsSchema,
]);
const tokenSchema = z.object({ token: z.string().min(1) });
const estimateSchema = z.object({ estimated_amount: decimal });
const balanceSchema = z.record(
  z.string(),
  z.object({ amount: decimal, pendingAmount: decimal.optional() }),
);

/** Dollars → coins as the provider estimates them; the rate is coins per dollar, for the record. */
function rateText(coinAmount: string, amountCents: bigint): string {
  return String(Number((Number(coinAmount) / centsToDollarNumber(amountCents)).toPrecision(12)));
}

/**
 * Withdrawals through NOWPayments' payout API (docs/payouts.md): a JWT from `POST /v1/auth`, then
 * `POST /v1/payout` with the payout's id as `unique_external_id`, then
 * `POST /v1/payout/{batch}/verify` with a TOTP code. Every failure to be answered is
 * `unavailable` (retried with backoff); a refusal of the request itself is `declined`.
 */
export function createNowPaymentsPayoutProvider(options: NowPaymentsPayoutOptions): PayoutProvider {
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(options.twoFactorSecret),
  });
  let token: { value: string; until: number } | null = null;

  const client = createNowPaymentsClient({
    apiKey: options.apiKey,
    apiBase: options.apiBase,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    // A request NOWPayments refuses as it stands (a bad address, an amount under its minimum)
    // would be refused again: it is declined, not retried.
    refusalKind: (status) => (status === 400 ? 'declined' : 'unavailable'),
  });
  const parse = client.parse.bind(client);

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: object,
    bearerToken?: string,
  ): Promise<unknown> {
    try {
      return await client.call(method, path, {
        ...(body ? { body } : {}),
        ...(bearerToken ? { bearer: bearerToken } : {}),
      });
    } catch (error) {
      // A token NOWPayments no longer takes is forgotten: the next call signs in again.
      if (error instanceof NowPaymentsError && error.status === 401) token = null;
      throw error;
    }
  }

  async function bearer(): Promise<string> {
    const now = Date.now();
    if (token && token.until > now) return token.value;
    const json = await call('POST', '/v1/auth', {
      email: options.email,
      password: options.password,
    });
    const value = parse(tokenSchema, json, 'token').token;
    token = { value, until: now + TOKEN_REUSE_MS };
    return value;
  }

  async function batch(path: string): Promise<Withdrawal[]> {
    const json = await call('GET', path, undefined, await bearer());
    return parse(batchSchema, json, 'payout').map(toWithdrawal);
  }

  return {
    name: 'nowpayments',

    async validateAddress({ currency, address, extraId }) {
      try {
        await call('POST', '/v1/payout/validate-address', {
          address,
          currency,
          ...(extraId ? { extra_id: extraId } : {}),
        });
        return true;
      } catch (error) {
        if (error instanceof PaymentProviderError && error.kind === 'declined') return false;
        throw error;
      }
    },

    async estimate(amountCents, currency) {
      const query = new URLSearchParams({
        amount: String(centsToDollarNumber(amountCents)),
        currency_from: 'usd',
        currency_to: currency,
      });
      const json = await call('GET', `/v1/estimate?${query.toString()}`);
      const coinAmount = parse(estimateSchema, json, 'estimate').estimated_amount;
      return { coinAmount, rate: rateText(coinAmount, amountCents) };
    },

    async balances() {
      const json = await call('GET', '/v1/balance');
      return Object.entries(parse(balanceSchema, json, 'balance')).map(([currency, row]) => ({
        currency: currency.toLowerCase(),
        amount: row.amount,
        pending: row.pendingAmount ?? '0',
      }));
    },

    async findWithdrawal(externalId, since) {
      for (let page = 0; page < FIND_PAGES_MAX; page += 1) {
        const query = new URLSearchParams({
          limit: String(FIND_PAGE_SIZE),
          page: String(page),
          order_by: 'dateCreated',
          order: 'desc',
          date_from: since.toISOString(),
        });
        const rows = await batch(`/v1/payout?${query.toString()}`);
        const found = rows.find((row) => row.externalId === externalId);
        if (found) return found;
        if (rows.length < FIND_PAGE_SIZE) return null;
      }
      throw new PaymentProviderError(
        'unavailable',
        `NOWPayments lists more than ${FIND_PAGES_MAX * FIND_PAGE_SIZE} payouts since ${since.toISOString()}`,
      );
    },

    async getWithdrawal({ id, batchId }) {
      if (!/^\d{1,30}$/.test(batchId)) {
        throw new PaymentProviderError('not_found', `${batchId} is not a NOWPayments payout id`);
      }
      const found = (await batch(`/v1/payout/${batchId}`)).find((row) => row.id === id);
      if (!found)
        throw new PaymentProviderError('not_found', `NOWPayments has no withdrawal ${id}`);
      return found;
    },

    async createWithdrawal({ destination, coinAmount, externalId }) {
      const json = await call(
        'POST',
        '/v1/payout',
        {
          ...(options.ipnCallbackUrl ? { ipn_callback_url: options.ipnCallbackUrl } : {}),
          withdrawals: [
            {
              address: destination.address,
              currency: destination.currency,
              amount: Number(coinAmount),
              ...(destination.extraId ? { extra_id: destination.extraId } : {}),
              unique_external_id: externalId,
              ...(options.ipnCallbackUrl ? { ipn_callback_url: options.ipnCallbackUrl } : {}),
            },
          ],
        },
        await bearer(),
      );
      const [created] = parse(batchSchema, json, 'payout').map(toWithdrawal);
      if (!created)
        throw new PaymentProviderError('unavailable', 'NOWPayments created no withdrawal');
      return created;
    },

    async verify(batchId) {
      await call(
        'POST',
        `/v1/payout/${batchId}/verify`,
        { verification_code: totp.generate() },
        await bearer(),
      );
    },
  };
}
