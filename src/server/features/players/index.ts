/**
 * Player pages and leaderboards (docs/challenges.md#finding-an-opponent).
 */
export { playerRoutes } from './routes.ts';
export { leaderboard, playerProfile } from './view.ts';
