import {
  PAYOUT_TEAM_REVIEW_REASON,
  type AdminPayoutView,
  type PayoutView,
} from '#shared/contracts/payouts.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { findPayoutCoin } from '#shared/payout-coins.ts';
import type { Payout } from '../../db/schema/payouts.ts';
import { isRiskFlag } from '../risk/index.ts';
import { REVIEW_REASON_SEPARATOR } from './rules.ts';

/**
 * Why a payout waits, as its player may read it (docs/payouts.md#never-tip-off): a risk signal's
 * name becomes "a review by our team"; the reasons a player can act on (the ID, the amount) stay.
 */
export function playerStageReason(reason: string | null): string | null {
  if (reason === null) return null;
  const reasons = reason.split(REVIEW_REASON_SEPARATOR);
  const shown = reasons.filter((each) => !isRiskFlag(each));
  if (shown.length < reasons.length) shown.push(PAYOUT_TEAM_REVIEW_REASON);
  return shown.join(REVIEW_REASON_SEPARATOR);
}

/**
 * docs/product.md#data Payout, as its player sees it: dollars as numbers, dates as ISO strings,
 * completedAt null until completed.
 */
export function toPayoutView(payout: Payout): PayoutView {
  return { ...toPayoutViewForAdmin(payout), stageReason: playerStageReason(payout.stageReason) };
}

/** The same, with the names of the risk signals that hold it, for an admin. */
export function toPayoutViewForAdmin(payout: Payout): PayoutView {
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
    ...toPayoutViewForAdmin(payout),
    username,
    decidedBy: payout.decidedBy,
    decidedAt: payout.decidedAt?.toISOString() ?? null,
  };
}
