export { playerRoutes } from './routes.ts';
export { leaderboard, playerProfile } from './view.ts';
