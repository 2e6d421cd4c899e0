import { PAYMENT_MESSAGES } from '#shared/contracts/payments.ts';
import { formatDollars } from '#client/lib/format.ts';

/**
 * docs/product.md#messages, Card and Crypto: the headings and texts the deposit dialog shows, as
 * written.
 */
export const DEPOSIT_TITLES = {
  invalidAmount: 'INVALID AMOUNT',
  success: 'DEPOSIT SUCCESSFUL',
  paymentFailed: 'PAYMENT FAILED',
  balanceUpdateFailed: 'BALANCE UPDATE FAILED',
  paymentIncomplete: 'PAYMENT INCOMPLETE',
  unexpected: 'ERROR',
  cardUnavailable: 'PAYMENT SERVICE UNAVAILABLE',
  serviceError: 'PAYMENT SERVICE ERROR',
  cryptoUnavailable: 'CRYPTOCURRENCY PAYMENTS UNAVAILABLE',
  amountTooSmall: 'DEPOSIT AMOUNT TOO SMALL',
  paymentExpired: 'PAYMENT EXPIRED',
  cryptoInitiated: 'CRYPTO DEPOSIT INITIATED',
  accountSuspended: 'ACCOUNT SUSPENDED',
  depositLimit: 'DEPOSIT LIMIT REACHED',
  playPaused: 'DEPOSITS PAUSED',
  moneyLocked: 'MONEY LOCKED',
} as const;

/**
 * The heading of a refusal aimed at the player's own account (docs/fair-play.md,
 * docs/responsible-play.md, docs/chargebacks.md): a suspension, a deposit limit they set, their
 * time-out or self-exclusion, or a card dispute's lock; null for any other answer.
 */
export function accountRefusalTitle(code: string | undefined): string | null {
  switch (code) {
    case 'ACCOUNT_SUSPENDED':
      return DEPOSIT_TITLES.accountSuspended;
    case 'DEPOSIT_LIMIT_EXCEEDED':
      return DEPOSIT_TITLES.depositLimit;
    case 'PLAY_PAUSED':
      return DEPOSIT_TITLES.playPaused;
    case 'MONEY_LOCKED':
      return DEPOSIT_TITLES.moneyLocked;
    default:
      return null;
  }
}

export const DEPOSIT_MESSAGES = {
  balanceUpdateFailed:
    "Payment was successful but we couldn't update your balance. Please contact support.",
  paymentIncomplete: PAYMENT_MESSAGES.paymentIncomplete,
  unexpected: 'An unexpected error occurred during payment processing',
  cardUnavailable: PAYMENT_MESSAGES.cardUnavailable,
  cryptoUnavailable: PAYMENT_MESSAGES.cryptoUnavailable,
  invalidConfiguration: 'Invalid payment configuration received from server',
  initFailed: 'Failed to initialize payment',
  amountTooSmall: PAYMENT_MESSAGES.amountTooSmall,
  cooldown: 'SERVICE TEMPORARILY UNAVAILABLE. PLEASE WAIT A MOMENT BEFORE TRYING AGAIN.',
  paymentExpired: 'The payment window has expired. Please try again.',
  cryptoInitiated:
    'We have let our team know about your deposit. They will contact you with payment instructions.',
  depositsPaused: 'Deposits are paused while your account is suspended.',
  depositsPausedByBreak: 'Deposits are paused during the break you took from cash play.',
} as const;

/** docs/product.md#messages, the crypto panel's status line. */
export const CRYPTO_STATUS_TEXTS = {
  waiting: 'WAITING FOR PAYMENT CONFIRMATION...',
  confirmed: 'PAYMENT CONFIRMED',
  checkFailed: 'UNABLE TO CHECK PAYMENT STATUS',
  resuming: 'RESUMING STATUS CHECKS...',
  expired: 'PAYMENT EXPIRED',
  failed: 'PAYMENT FAILED',
  refunded: 'PAYMENT REFUNDED',
} as const;

export function rateLimitedStatusText(secondsLeft: number): string {
  return `RATE LIMITED. RETRYING IN ${secondsLeft} SEC...`;
}

/** "$25.00 has been added to your account." */
export function depositSuccessMessage(amountDollars: number): string {
  return `${formatDollars(amountDollars)} has been added to your account.`;
}

/** A heading and a sentence, for the card error panel and the crypto panel's error state. */
export interface DepositProblem {
  title: string;
  message: string;
}
