import { PAYOUT_STATUS_BADGES, type PayoutMethodValue } from '#shared/contracts/payouts.ts';
import type { BadgeVariant } from '#client/components/ui/badge.tsx';

/**
 * SPEC §4: pending shows PROCESSING, completed COMPLETED, and anything else FAILED. The argument
 * is a plain string on purpose: a status this client does not know yet still gets a badge.
 */
export function payoutStatusLabel(status: string): string {
  if (status === 'pending' || status === 'completed') return PAYOUT_STATUS_BADGES[status];
  return PAYOUT_STATUS_BADGES.failed;
}

export function payoutStatusVariant(status: string): BadgeVariant {
  if (status === 'pending') return 'warning';
  if (status === 'completed') return 'success';
  return 'danger';
}

const METHOD_LABELS: Record<PayoutMethodValue, string> = {
  paypal: 'PayPal',
  bank_transfer: 'Bank Transfer',
  crypto: 'Crypto',
};

export function payoutMethodLabel(method: PayoutMethodValue): string {
  return METHOD_LABELS[method];
}

/**
 * SPEC §2: a payout's date is shown only when the API sent it as text (N/A otherwise). Text that
 * is not a date is N/A as well, rather than "Invalid Date".
 */
export function payoutDateLabel(value: unknown): string {
  if (typeof value !== 'string') return 'N/A';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
