import { loadLeaderboardSchema } from '#client/features/players/api/get-leaderboard.ts';
import { loadPlayerSchema } from '#client/features/players/api/get-player.ts';
import { loadTournamentListSchema } from '#client/features/tournaments/api/get-tournaments.ts';
import type { PageQueryContracts } from '#client/lib/page-data.ts';

/**
 * The contract of each query whose answer the page may carry: the one its query checks the API's
 * answer with (the server's table is `features/pages/page-data.ts`).
 */
export const PAGE_QUERY_CONTRACTS: PageQueryContracts = {
  player: loadPlayerSchema,
  leaderboard: loadLeaderboardSchema,
  tournaments: loadTournamentListSchema,
};
