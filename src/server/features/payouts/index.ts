export { listOwnPayouts, lockPendingPayoutsOf } from './repository.ts';
export { payoutRoutes } from './routes.ts';
export { applyPayoutDecision } from './stages.ts';
export { toPayoutView } from './view.ts';
