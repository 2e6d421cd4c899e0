import { useEffect, useEffectEvent, useState } from 'react';
import type { CryptoPaymentStatus } from '#shared/contracts/payments.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { checkCryptoPayment } from '../api/check-crypto-payment.ts';
import { CRYPTO_STATUS_TEXTS, rateLimitedStatusText } from '../lib/deposit-messages.ts';
import { CRYPTO_POLL_INTERVAL_MS, STATUS_RETRY_AFTER_DEFAULT_S } from '../lib/deposit-timing.ts';

/**
 * Where the crypto panel's status line stands (docs/product.md#states, docs/product.md#messages).
 */
export type CryptoWatchState =
  | { kind: 'waiting'; partiallyPaid: boolean }
  | { kind: 'rate-limited'; secondsLeft: number }
  | { kind: 'resuming' }
  | { kind: 'check-failed' }
  | { kind: 'confirmed' }
  | { kind: 'expired' }
  | { kind: 'failed'; status: 'failed' | 'refunded' };

export function cryptoStatusText(state: CryptoWatchState): string {
  switch (state.kind) {
    case 'waiting':
      return CRYPTO_STATUS_TEXTS.waiting;
    case 'rate-limited':
      return rateLimitedStatusText(state.secondsLeft);
    case 'resuming':
      return CRYPTO_STATUS_TEXTS.resuming;
    case 'check-failed':
      return CRYPTO_STATUS_TEXTS.checkFailed;
    case 'confirmed':
      return CRYPTO_STATUS_TEXTS.confirmed;
    case 'expired':
      return CRYPTO_STATUS_TEXTS.expired;
    case 'failed':
      return state.status === 'refunded'
        ? CRYPTO_STATUS_TEXTS.refunded
        : CRYPTO_STATUS_TEXTS.failed;
  }
}

/** The state a status reported by the server leads to. */
function stateForStatus(status: CryptoPaymentStatus): CryptoWatchState {
  switch (status) {
    case 'finished':
    case 'confirmed':
      return { kind: 'confirmed' };
    case 'expired':
      return { kind: 'expired' };
    case 'failed':
    case 'refunded':
      return { kind: 'failed', status };
    case 'partially_paid':
      // Not final: the rest may still arrive at the same address.
      return { kind: 'waiting', partiallyPaid: true };
    case 'waiting':
    case 'confirming':
    case 'sending':
      return { kind: 'waiting', partiallyPaid: false };
  }
}

const isFinal = (state: CryptoWatchState) =>
  state.kind === 'confirmed' || state.kind === 'expired' || state.kind === 'failed';

export interface CryptoWatchHandlers {
  onConfirmed: () => void;
  onExpired: () => void;
}

/**
 * Polls a crypto payment's status every 15 s until it is final (docs/product.md#states,
 * docs/product.md#constants). A 429 pauses the polling for the server's `retryAfter` (30 s when it
 * names none) with a countdown, then checks at once; any other failure says so and keeps the 15 s
 * rhythm. Polling stops when the panel goes away.
 */
export function useCryptoPaymentStatus(
  paymentId: string,
  handlers: CryptoWatchHandlers,
): CryptoWatchState {
  const [state, setState] = useState<CryptoWatchState>({ kind: 'waiting', partiallyPaid: false });
  const onConfirmed = useEffectEvent(handlers.onConfirmed);
  const onExpired = useEffectEvent(handlers.onExpired);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const after = (ms: number, next: () => void) => {
      timer = setTimeout(next, ms);
    };

    const countDown = (secondsLeft: number) => {
      if (secondsLeft <= 0) {
        setState({ kind: 'resuming' });
        void check();
        return;
      }
      setState({ kind: 'rate-limited', secondsLeft });
      after(1000, () => countDown(secondsLeft - 1));
    };

    const check = async () => {
      let status: CryptoPaymentStatus;
      try {
        status = await checkCryptoPayment(paymentId, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 429) {
          countDown(error.retryAfter ?? STATUS_RETRY_AFTER_DEFAULT_S);
          return;
        }
        setState({ kind: 'check-failed' });
        after(CRYPTO_POLL_INTERVAL_MS, () => void check());
        return;
      }
      if (controller.signal.aborted) return;
      const next = stateForStatus(status);
      setState(next);
      if (next.kind === 'confirmed') onConfirmed();
      if (next.kind === 'expired') onExpired();
      if (!isFinal(next)) after(CRYPTO_POLL_INTERVAL_MS, () => void check());
    };

    after(CRYPTO_POLL_INTERVAL_MS, () => void check());
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [paymentId]);

  return state;
}
