/**
 * Single-elimination tournaments: joining, the start, matches and the payout by place
 * (docs/tournaments.md).
 */
export { matchFileReaders } from './evidence.ts';
export { tournamentHoldsOf } from './held.ts';
export { tournamentRoutes } from './routes.ts';
export { findTournamentMatch } from './service.ts';
export { listTournaments } from './view.ts';
export { lockOpenEntriesOf, withdrawEntriesLocked } from './withdrawals.ts';
export { TOURNAMENT_INTERVAL_MS, startTournamentWorker } from './worker.ts';
