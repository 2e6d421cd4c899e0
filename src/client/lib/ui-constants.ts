/**
 * Interface constants from docs/product.md#constants, in one place so the shell, the toasts and
 * their tests agree.
 */

/** Each scroll-button press moves the page this far, smoothly. */
export const SCROLL_STEP_PX = 300;
/** The scroll buttons appear only when the page is taller than the viewport by more than this. */
export const SCROLL_OVERFLOW_THRESHOLD_PX = 100;
/** BACK TO TOP appears once the reader is past this fraction of the scrollable distance. */
export const BACK_TO_TOP_FRACTION = 0.5;

/** One toast is visible at a time: a new one replaces the old. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = 'F8';
/**
 * A dismissed toast stays in the store, closed, for this long before it is dropped. With a limit
 * of one, the next toast replaces it much sooner; the delay only bounds what a quiet page keeps.
 */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

/** docs/product.md#constants: how long the Submit Results toasts stay. */
export const RESULTS_SUCCESS_TOAST_MS = 8000;
export const SUBMISSION_FAILED_TOAST_MS = 5000;
export const AUTH_ERROR_TOAST_MS = 7000;
