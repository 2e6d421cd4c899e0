import type { AdminPayoutView, PayoutView } from '#shared/contracts/payouts.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { findPayoutCoin } from '#shared/payout-coins.ts';
import type { Payout } from '../../db/schema/payouts.ts';

/**
 * docs/product.md#data Payout: dollars as numbers, dates as ISO strings, completedAt null until
 * completed.
 */
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
    stage: payout.stage,
    stageReason: payout.stageReason,
    currency: payout.currency,
    address: payout.address,
    extraId: payout.extraId,
    coinAmount: payout.coinAmount,
    coinRate: payout.coinRate,
    txHash: payout.txHash,
    explorerUrl:
      payout.txHash && payout.currency && payout.provider === 'nowpayments'
        ? (findPayoutCoin(payout.currency)?.explorer(payout.txHash) ?? null)
        : null,
    sentAt: payout.sentAt?.toISOString() ?? null,
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
