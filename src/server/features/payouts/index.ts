/**
 * Payouts: requests, the rules that decide, the sender, and each payout's stages
 * (docs/payouts.md).
 */
export {
  cardMoneyMessage,
  lockWithdrawalsOf,
  payoutLimitsOf,
  type PayoutLimits,
} from './card-money.ts';
export { listOwnPayouts, lockPendingPayoutsOf } from './repository.ts';
export { payoutRoutes } from './routes.ts';
export { applyPayoutDecision, returnWaitingPayouts } from './stages.ts';
export { toPayoutView, toPayoutViewForAdmin } from './view.ts';
