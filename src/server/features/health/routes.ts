import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';

const healthSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({ status: z.enum(['ready', 'unavailable']) });

export const healthRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Liveness: the process answers. It touches nothing else so a slow database never gets a
    // healthy process restarted.
    app.get(
      '/api/health',
      {
        config: { access: 'public' },
        logLevel: 'warn',
        schema: { response: { 200: healthSchema } },
      },
      async () => ({ status: 'ok' as const }),
    );

    // Readiness: the database answers, so a load balancer can send traffic here.
    app.get(
      '/api/ready',
      {
        config: { access: 'public' },
        logLevel: 'warn',
        schema: { response: { 200: readySchema, 503: readySchema } },
      },
      async (request, reply) => {
        try {
          await ctx.db.execute(sql`select 1`);
          return { status: 'ready' as const };
        } catch (error) {
          request.log.error({ err: error }, 'readiness check failed');
          return reply.code(503).send({ status: 'unavailable' as const });
        }
      },
    );
  };
