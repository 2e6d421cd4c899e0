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
} from '#shared/contracts/players.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { suggestGames } from './repository.ts';
import { leaderboard, playerProfile } from './view.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/**
 * Player pages, leaderboards and the lobby's game suggestions
 * (docs/challenges.md#finding-an-opponent).
 */
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
