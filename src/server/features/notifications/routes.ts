import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  listNotificationsQuerySchema,
  markReadBodySchema,
  notificationListSchema,
} from '#shared/contracts/notifications.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { requireUser } from '../../plugins/access.ts';
import { toNotificationView } from './notify.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema };

async function unreadCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** A player's notifications (DESIGN §10): only ever their own. */
export const notificationRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/notifications',
      {
        config: { access: 'user' },
        schema: {
          querystring: listNotificationsQuerySchema,
          response: { 200: notificationListSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const { limit, before } = request.query;
        const mine = eq(notifications.userId, user.id);
        const rows = await ctx.db
          .select()
          .from(notifications)
          .where(before === undefined ? mine : and(mine, lt(notifications.id, BigInt(before))))
          .orderBy(desc(notifications.id))
          .limit(limit);
        return {
          notifications: rows.map(toNotificationView),
          unread: await unreadCount(ctx.db, user.id),
        };
      },
    );

    app.post(
      '/api/notifications/read',
      {
        config: { access: 'user' },
        schema: {
          body: markReadBodySchema,
          response: { 200: notificationListSchema.pick({ unread: true }), ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const body = request.body;
        const unread = and(eq(notifications.userId, user.id), isNull(notifications.readAt));
        await ctx.db
          .update(notifications)
          .set({ readAt: ctx.clock() })
          .where(
            'all' in body ? unread : and(unread, inArray(notifications.id, body.ids.map(BigInt))),
          );
        return { unread: await unreadCount(ctx.db, user.id) };
      },
    );
  };
