import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuerySchema } from '#shared/contracts/admin.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import type { AppContext } from '../../context.ts';
import { listAuditEntries } from './audit-log.ts';

export const auditRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/audit',
      {
        config: { access: 'admin' },
        schema: {
          querystring: auditQuerySchema,
          response: {
            200: auditPageSchema,
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
          },
        },
      },
      async (request) => {
        const { limit, ...filter } = request.query;
        // One extra row tells whether an older page exists.
        const rows = await listAuditEntries(ctx.db, { ...filter, limit: limit + 1 });
        const page = rows.slice(0, limit);
        const oldest = page.at(-1);
        return {
          items: page.map(({ entry, actorUsername }) => ({
            id: Number(entry.id),
            createdAt: entry.createdAt.toISOString(),
            actor: { id: entry.actorUserId, username: actorUsername },
            action: entry.action,
            target: { type: entry.targetType, id: entry.targetId },
            details: entry.details,
            reason: entry.reason,
          })),
          nextBefore: rows.length > limit && oldest ? Number(oldest.entry.id) : null,
        };
      },
    );
  };
