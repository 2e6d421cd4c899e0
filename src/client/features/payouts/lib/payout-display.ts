import {
  PAYOUT_STAGE_LABELS,
  PAYOUT_STATUS_BADGES,
  PAYOUT_TEAM_REVIEW,
  PAYOUT_TEAM_REVIEW_REASON,
  type PayoutMethodValue,
  type PayoutView,
} from '#shared/contracts/payouts.ts';
import type { BadgeVariant } from '#client/components/ui/badge.tsx';

/**
 * docs/product.md#states: pending shows PROCESSING, completed COMPLETED, and anything else FAILED.
 * The argument is a plain string on purpose: a status this client does not know yet still gets a
 * badge.
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
 * docs/product.md#screens: a payout's date is shown only when the API sent it as text (N/A
 * otherwise). Text that is not a date is N/A as well, rather than "Invalid Date".
 */
export function payoutDateLabel(value: unknown): string {
  if (typeof value !== 'string') return 'N/A';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** docs/payouts.md: the stage in words, with why it waits when it waits for review. */
export function payoutStageLabel(payout: Pick<PayoutView, 'stage' | 'stageReason'>): string {
  const label = PAYOUT_STAGE_LABELS[payout.stage];
  if (payout.stage === 'review' && payout.stageReason === PAYOUT_TEAM_REVIEW_REASON) {
    return PAYOUT_TEAM_REVIEW;
  }
  return payout.stageReason && payout.stage !== 'failed'
    ? `${label}: ${payout.stageReason}`
    : label;
}

/** How long a completed payout took from its request: "45 s", "3 min 20 s", "2 h 5 min". */
export function payoutDurationLabel(createdAt: string, completedAt: string | null): string | null {
  if (!completedAt) return null;
  const seconds = Math.max(
    0,
    Math.round((new Date(completedAt).getTime() - new Date(createdAt).getTime()) / 1000),
  );
  if (Number.isNaN(seconds)) return null;
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60)
    return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
