import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  responsibleGamingSchema,
  setLimitsBodySchema,
} from '#shared/contracts/responsible-gaming.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { responsibleGamingOf, setDepositLimits } from './service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema };

/**
 * The player's own limits and breaks (docs/responsible-play.md). Every change answers the page's
 * new state. No route ends a break or lifts a limit at once, for the player or for an admin.
 */
export const responsibleGamingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const answer = { 200: responsibleGamingSchema, ...errors };

    app.get(
      '/api/responsible-gaming',
      { config: { access: 'user' }, schema: { response: answer } },
      async (request) => responsibleGamingOf(ctx.db, requireUser(request).id, ctx.clock()),
    );

    app.put(
      '/api/responsible-gaming/limits',
      { config: { access: 'user' }, schema: { body: setLimitsBodySchema, response: answer } },
      async (request) => {
        const { id } = requireUser(request);
        await setDepositLimits(ctx, id, request.body);
        return responsibleGamingOf(ctx.db, id, ctx.clock());
      },
    );
  };
