/**
 * A player's deposit limits and the view of their limits and breaks (docs/responsible-play.md).
 */
export { lockPlayerDeposits, requireWithinDepositLimits } from './deposit-limits.ts';
export { responsibleGamingRoutes } from './routes.ts';
export { responsibleGamingOf } from './service.ts';
