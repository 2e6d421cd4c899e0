import { createHash } from 'node:crypto';
import { checkPayoutDestination, PAYOUT_COIN_CODES } from '#shared/payout-coins.ts';
import { PaymentProviderError } from '../../payments/index.ts';
import type { PayoutProvider, Withdrawal } from './types.ts';

/** A sandbox withdrawal finishes by itself this long after it was sent (docs/payouts.md). */
export const SANDBOX_PAYOUT_FINISH_MS = 60_000;
const COIN_DECIMALS = 8n;
const COIN_UNIT = 10n ** COIN_DECIMALS;
/** The made-up balance the sandbox holds of each coin. */
const SANDBOX_BALANCE = '1000000';

/** Made-up prices, in cents per whole coin; a coin not listed costs a dollar. */
const PRICE_CENTS: Record<string, bigint> = {
  btc: 6_000_000n,
  eth: 300_000n,
  ltc: 8_000n,
  xrp: 50n,
  xlm: 10n,
};

function coinText(units: bigint): string {
  const whole = units / COIN_UNIT;
  const fraction = (units % COIN_UNIT).toString().padStart(Number(COIN_DECIMALS), '0');
  return `${whole}.${fraction}`.replace(/\.?0+$/, '');
}

const ID_PATTERN = /^sandbox_(\d{13})_([\w-]{1,80})$/;

/**
 * The TEST MODE payout provider: it sends nothing. An address is checked by its coin's format,
 * a withdrawal is on its way at once with a made-up hash, and finishes by itself a minute after
 * it was made; an admin can end it first (`POST /api/sandbox/payouts/{id}/simulate`). It keeps no
 * state: a withdrawal's id carries when it was made, so the sender's look-up finds nothing and a
 * second creation after a lost answer makes a second id for the same nothing.
 */
export function createSandboxPayoutProvider(clock: () => Date): PayoutProvider {
  function withdrawal(id: string, externalId: string, createdMs: number): Withdrawal {
    const finished = clock().getTime() - createdMs >= SANDBOX_PAYOUT_FINISH_MS;
    return {
      id,
      batchId: id,
      state: finished ? 'finished' : 'processing',
      providerStatus: finished ? 'finished' : 'sending',
      currency: '',
      amount: '',
      hash: createHash('sha256').update(id).digest('hex'),
      error: null,
      externalId,
    };
  }

  return {
    name: 'sandbox',

    async validateAddress(destination) {
      return checkPayoutDestination(destination) === null;
    },

    async estimate(amountCents, currency) {
      const price = PRICE_CENTS[currency] ?? 100n;
      return {
        coinAmount: coinText((amountCents * COIN_UNIT) / price),
        rate: coinText((100n * COIN_UNIT) / price),
      };
    },

    async balances() {
      return PAYOUT_COIN_CODES.map((currency) => ({
        currency,
        amount: SANDBOX_BALANCE,
        pending: '0',
      }));
    },

    async findWithdrawal() {
      return null;
    },

    async getWithdrawal({ id }) {
      const match = ID_PATTERN.exec(id);
      if (!match?.[1] || !match[2]) {
        throw new PaymentProviderError('not_found', `${id} is not a sandbox withdrawal`);
      }
      return withdrawal(id, match[2], Number(match[1]));
    },

    async createWithdrawal({ externalId }) {
      const createdMs = clock().getTime();
      return withdrawal(`sandbox_${createdMs}_${externalId}`, externalId, createdMs);
    },

    async verify() {},
  };
}
