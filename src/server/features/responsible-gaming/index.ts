export { lockPlayerDeposits, requireWithinDepositLimits } from './deposit-limits.ts';
export { responsibleGamingRoutes } from './routes.ts';
export { responsibleGamingOf } from './service.ts';
