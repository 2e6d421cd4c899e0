/**
 * Health and readiness for load balancers (docs/operations.md).
 */
export { healthRoutes } from './routes.ts';
