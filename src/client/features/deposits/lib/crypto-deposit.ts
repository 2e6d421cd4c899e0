import { PAYMENT_MESSAGES, rateLimitedMessage } from '#shared/contracts/payments.ts';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { accountRefusalTitle, DEPOSIT_MESSAGES, DEPOSIT_TITLES } from './deposit-messages.ts';
import { CREATE_RETRY_AFTER_DEFAULT_S } from './deposit-timing.ts';
import { InvalidPaymentResponseError } from './payment-response.ts';

/** Why the crypto panel has no payment to show; some messages stand without a heading. */
export interface CryptoProblem {
  title: string | null;
  message: string;
}

export const CRYPTO_COOLDOWN_PROBLEM: CryptoProblem = {
  title: null,
  message: DEPOSIT_MESSAGES.cooldown,
};

export const CRYPTO_TOO_SMALL_PROBLEM: CryptoProblem = {
  title: DEPOSIT_TITLES.amountTooSmall,
  message: DEPOSIT_MESSAGES.amountTooSmall,
};

/** Amount messages that mean "too small": ours ($10) and the coin network's own minimum. */
const TOO_SMALL_MESSAGES: readonly string[] = [
  PAYMENT_MESSAGES.amountTooSmall,
  PAYMENT_MESSAGES.providerMinimum,
];

/** docs/product.md#messages, Crypto: a failed payment creation in the player's words. */
export function cryptoCreationProblem(error: unknown): CryptoProblem {
  if (error instanceof InvalidPaymentResponseError) {
    return { title: DEPOSIT_TITLES.serviceError, message: DEPOSIT_MESSAGES.invalidConfiguration };
  }
  if (!(error instanceof ApiError)) {
    return { title: DEPOSIT_TITLES.serviceError, message: DEPOSIT_MESSAGES.initFailed };
  }
  if (error.status === 429) {
    return {
      title: null,
      message: rateLimitedMessage(error.retryAfter ?? CREATE_RETRY_AFTER_DEFAULT_S),
    };
  }
  if (error.status === 503) {
    return { title: DEPOSIT_TITLES.cryptoUnavailable, message: DEPOSIT_MESSAGES.cryptoUnavailable };
  }
  const refusal = accountRefusalTitle(error.code);
  if (refusal) return { title: refusal, message: serverText(error) };
  const amountMessage = error.fields?.amount;
  if (amountMessage && TOO_SMALL_MESSAGES.includes(amountMessage)) {
    return { title: DEPOSIT_TITLES.amountTooSmall, message: amountMessage };
  }
  return { title: DEPOSIT_TITLES.serviceError, message: serverText(error) };
}

/**
 * docs/product.md#calls: when the payment service itself failed (it is down, broke its answer, or
 * could not be reached), the player's intent is reported to the server so an admin can follow up.
 * Refusals aimed at the player (too many requests, a bad amount, a lost session) are not: reporting
 * them would only repeat the refusal.
 */
export function isCryptoServiceFailure(error: unknown): boolean {
  if (error instanceof InvalidPaymentResponseError) return true;
  if (error instanceof ApiError) return error.status >= 500;
  return true;
}

/**
 * A coin amount as the player must type it into a wallet: every decimal the provider gave, never
 * an exponent ("0.0000005", not "5e-7"), no grouping.
 */
export function formatCryptoAmount(amount: number): string {
  return amount.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}
