import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  gameSuggestionsQuerySchema,
  gameSuggestionsSchema,
  leaderboardQuerySchema,
  leaderboardSchema,
  PLAYER_MESSAGES,
  playerParamsSchema,
  playerProfileSchema,
  type Leaderboard,
  type LeaderboardRow,
  type PlayerProfile,
} from '#shared/contracts/players.ts';
import type { z } from '#shared/validation.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { EMPTY_RECORD, findPlayerRecords } from '../challenges/records.ts';
import { findUserByUsername } from '../users/repository.ts';
import {
  findGameName,
  findPlayerGames,
  findPlayerResults,
  gameKey,
  listLeaderboard,
  periodStart,
  suggestGames,
  type LeaderboardEntryRow,
} from './repository.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

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

/** Player pages, leaderboards and the lobby's game suggestions (DESIGN §12). */
export const playerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/players/:username',
      {
        config: { access: 'user' },
        schema: {
          params: playerParamsSchema,
          response: { 200: playerProfileSchema, ...errors },
        },
      },
      async (request) => {
        const profile = await playerProfile(ctx, request.params.username);
        // A closed account has no page: its name is gone, and so is whoever played under it.
        if (!profile) throw new AppError('NOT_FOUND', PLAYER_MESSAGES.notFound);
        return profile;
      },
    );

    app.get(
      '/api/leaderboard',
      {
        config: { access: 'user' },
        schema: {
          querystring: leaderboardQuerySchema,
          response: { 200: leaderboardSchema, ...errors },
        },
      },
      async (request) => leaderboard(ctx, request.query),
    );

    app.get(
      '/api/games',
      {
        config: { access: 'user' },
        schema: {
          querystring: gameSuggestionsQuerySchema,
          response: { 200: gameSuggestionsSchema, ...errors },
        },
      },
      async (request) => {
        return suggestGames(ctx.db, request.query.q);
      },
    );
  };
