/**
 * docs/product.md#screens, docs/product.md#constants: the deposit dialog's timings, in one place so
 * the panels and tests agree.
 */

/** The crypto panel asks for the payment's status this often. */
export const CRYPTO_POLL_INTERVAL_MS = 15_000;
/** The crypto panel waits this long before creating the payment. */
export const CRYPTO_CREATE_DELAY_MS = 1_000;
/** After a failed crypto payment creation, a new attempt is refused for this long. */
export const CRYPTO_ERROR_COOLDOWN_MS = 5_000;
/** The DEPOSIT SUCCESSFUL toast of a crypto deposit stays this long. */
export const CRYPTO_SUCCESS_TOAST_MS = 5_000;
/** Seconds to wait after a 429 that names no `retryAfter`. */
export const CREATE_RETRY_AFTER_DEFAULT_S = 60;
export const STATUS_RETRY_AFTER_DEFAULT_S = 30;
/** A copy button shows its check mark this long before it turns back into a copy icon. */
export const COPY_CONFIRMATION_MS = 2_000;
