// The answers of the player routes (docs/challenges.md#finding-an-opponent), for the routes and for
// the pages that carry them (decision 8).
import type {
  Leaderboard,
  leaderboardQuerySchema,
  LeaderboardRow,
  PlayerProfile,
} from '#shared/contracts/players.ts';
import type { z } from '#shared/validation.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { EMPTY_RECORD, findPlayerRecords } from '../challenges/index.ts';
import { findUserByUsername } from '../accounts/index.ts';
import {
  findGameName,
  findPlayerGames,
  findPlayerResults,
  gameKey,
  listLeaderboard,
  periodStart,
  type LeaderboardEntryRow,
} from './repository.ts';

const ranked = (rows: LeaderboardEntryRow[]): LeaderboardRow[] =>
  rows.map((row, index) => ({
    rank: index + 1,
    username: row.username,
    played: row.played,
    wins: row.wins,
    net: centsToDollarNumber(row.netCents),
  }));

/**
 * A player's public page as GET /api/players/:username answers it, or null when there is no such
 * player or the account was closed (a 404). The page the server sends for /players/{name} carries
 * this same answer (decision 8).
 */
export async function playerProfile(
  ctx: AppContext,
  username: string,
): Promise<PlayerProfile | null> {
  const player = await findUserByUsername(ctx.db, username);
  if (!player || player.deletedAt) return null;
  const [records, games, results] = await Promise.all([
    findPlayerRecords(ctx.db, [player.id]),
    findPlayerGames(ctx.db, player.id),
    findPlayerResults(ctx.db, player.id),
  ]);
  return {
    username: player.username,
    joinedAt: player.createdAt.toISOString(),
    record: records.get(player.id) ?? EMPTY_RECORD,
    games,
    results: results.map((result) => ({
      challengeId: result.challengeId,
      game: result.game,
      console: result.console,
      amount: centsToDollarNumber(result.amountCents),
      won: result.won,
      score: result.score,
      opponentScore: result.opponentScore,
      opponent: result.opponent,
      completedAt: result.completedAt.toISOString(),
    })),
  };
}

/**
 * The boards GET /api/leaderboard answers for its (validated) query; the page the server sends
 * for /leaderboard carries this same answer (decision 8).
 */
export async function leaderboard(
  ctx: AppContext,
  { period, game }: z.output<typeof leaderboardQuerySchema>,
): Promise<Leaderboard> {
  const key = game === undefined ? '' : gameKey(game);
  const board = { period, start: periodStart(period, ctx.clock()), gameKey: key };
  const [byNet, byWins, name] = await Promise.all([
    listLeaderboard(ctx.db, board, 'net'),
    listLeaderboard(ctx.db, board, 'wins'),
    game === undefined ? undefined : findGameName(ctx.db, key),
  ]);
  return {
    period,
    game: game === undefined ? null : (name ?? game),
    since: period === 'all' ? null : board.start,
    byNet: ranked(byNet),
    byWins: ranked(byWins),
  };
}
