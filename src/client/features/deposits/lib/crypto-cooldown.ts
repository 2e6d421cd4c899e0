import { CRYPTO_ERROR_COOLDOWN_MS } from './deposit-timing.ts';

/**
 * docs/product.md#messages: after a crypto payment could not be created, a new attempt within 5
 * seconds is refused. The time is kept in sessionStorage, so it holds across the dialog closing and
 * reopening but belongs to this browser tab's session only.
 */
const STORAGE_KEY = 'skillstake:crypto-payment-error-at';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be switched off (privacy settings); the cooldown then simply does not apply.
    return null;
  }
}

export function recordCryptoPaymentError(nowMs = Date.now()): void {
  try {
    storage()?.setItem(STORAGE_KEY, String(nowMs));
  } catch {
    // A full or blocked storage only loses the cooldown.
  }
}

/** True when a crypto payment creation failed less than 5 seconds ago. */
export function isCryptoCooldownActive(nowMs = Date.now()): boolean {
  const stored = storage()?.getItem(STORAGE_KEY);
  if (!stored) return false;
  const failedAtMs = Number(stored);
  if (!Number.isFinite(failedAtMs)) return false;
  const elapsedMs = nowMs - failedAtMs;
  return elapsedMs >= 0 && elapsedMs < CRYPTO_ERROR_COOLDOWN_MS;
}
