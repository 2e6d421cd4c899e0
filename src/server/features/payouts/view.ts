import type { AdminPayoutView, PayoutView } from '#shared/contracts/payouts.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { Payout } from '../../db/schema/payouts.ts';

/** SPEC §3 Payout: dollars as numbers, dates as ISO strings, completedAt null until completed. */
export function toPayoutView(payout: Payout): PayoutView {
  return {
    id: payout.id,
    userId: payout.userId,
    amount: centsToDollarNumber(payout.amountCents),
    status: payout.status,
    paymentMethod: payout.paymentMethod,
    paymentDetails: payout.paymentDetails,
    phoneNumber: payout.phoneNumber,
    createdAt: payout.createdAt.toISOString(),
    completedAt: payout.completedAt?.toISOString() ?? null,
    failureReason: payout.failureReason,
  };
}

export function toAdminPayoutView(payout: Payout, username: string): AdminPayoutView {
  return {
    ...toPayoutView(payout),
    username,
    decidedBy: payout.decidedBy,
    decidedAt: payout.decidedAt?.toISOString() ?? null,
  };
}
