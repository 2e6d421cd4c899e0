import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  REPORT_MESSAGES,
  reportPlayerBodySchema,
  reportPlayerParamsSchema,
  reportPlayerResponseSchema,
} from '#shared/contracts/reports.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { fileReport } from './reports.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

/** A player reports another player to the admins (docs/fair-play.md). */
export const reportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/players/:username/report',
      {
        config: { access: 'user' },
        schema: {
          params: reportPlayerParamsSchema,
          body: reportPlayerBodySchema,
          response: { 201: reportPlayerResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const reporter = requireUser(request);
        const id = await fileReport(ctx, {
          reporterId: reporter.id,
          username: request.params.username,
          reason: request.body.reason,
          challengeId: request.body.challengeId,
        });
        request.log.info({ reporterId: reporter.id, reportId: id }, 'player reported');
        return reply.code(201).send({ id, message: REPORT_MESSAGES.received });
      },
    );
  };
