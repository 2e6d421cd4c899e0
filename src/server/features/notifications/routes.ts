import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  listNotificationsQuerySchema,
  markReadBodySchema,
  notificationListSchema,
} from '#shared/contracts/notifications.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { toNotificationView } from './notify.ts';
import { countUnread, listNotifications, markRead } from './repository.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema };

/** A player's notifications (docs/fair-play.md): only ever their own. */
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
        const [rows, unread] = await Promise.all([
          listNotifications(ctx.db, user.id, request.query),
          countUnread(ctx.db, user.id),
        ]);
        return { notifications: rows.map(toNotificationView), unread };
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
        await markRead(ctx.db, user.id, request.body, ctx.clock());
        return { unread: await countUnread(ctx.db, user.id) };
      },
    );
  };
