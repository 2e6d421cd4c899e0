import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADMIN_MESSAGES,
  suspendUserBodySchema,
  suspendUserResponseSchema,
  unsuspendUserBodySchema,
  unsuspendUserResponseSchema,
} from '#shared/contracts/admin.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  responsibleGamingSchema,
  selfExclusionBodySchema,
  timeOutBodySchema,
} from '#shared/contracts/responsible-gaming.ts';
import { userIdParamsSchema } from '#shared/contracts/wallet.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { responsibleGamingOf } from '../../features/responsible-gaming/index.ts';
import { takePlayBreak } from './play-breaks.ts';
import { suspendUser, unsuspendUser } from './suspension.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/**
 * What stops a player's cash play for a while: an admin's suspension and the player's own
 * time-out or self-exclusion. Each withdraws what the player has waiting (open challenges,
 * places in tournaments not yet started) with the money back.
 */
export const standingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const answer = { 200: responsibleGamingSchema, ...errors };

    app.post(
      '/api/responsible-gaming/time-out',
      { config: { access: 'user' }, schema: { body: timeOutBodySchema, response: answer } },
      async (request) => {
        const { id } = requireUser(request);
        await takePlayBreak(ctx, id, { days: request.body.days });
        return responsibleGamingOf(ctx.db, id, ctx.clock());
      },
    );

    app.post(
      '/api/responsible-gaming/self-exclusion',
      { config: { access: 'user' }, schema: { body: selfExclusionBodySchema, response: answer } },
      async (request) => {
        const { id } = requireUser(request);
        await takePlayBreak(ctx, id, { months: request.body.months });
        return responsibleGamingOf(ctx.db, id, ctx.clock());
      },
    );

    app.post(
      '/api/admin/users/:id/suspend',
      {
        config: { access: 'admin' },
        schema: {
          params: userIdParamsSchema,
          body: suspendUserBodySchema,
          response: { 200: suspendUserResponseSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        const { reason, until } = request.body;
        const summary = await suspendUser(ctx, {
          adminId: admin.id,
          userId: request.params.id,
          reason,
          until: until === undefined ? undefined : new Date(until),
        });
        request.log.info({ adminId: admin.id, userId: request.params.id }, 'user suspended');
        return { message: ADMIN_MESSAGES.userSuspended, userId: request.params.id, ...summary };
      },
    );

    app.post(
      '/api/admin/users/:id/unsuspend',
      {
        config: { access: 'admin' },
        schema: {
          params: userIdParamsSchema,
          body: unsuspendUserBodySchema,
          response: { 200: unsuspendUserResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await unsuspendUser(ctx, {
          adminId: admin.id,
          userId: request.params.id,
          reason: request.body?.reason,
        });
        request.log.info({ adminId: admin.id, userId: request.params.id }, 'user unsuspended');
        return { message: ADMIN_MESSAGES.userUnsuspended, userId: request.params.id };
      },
    );
  };
