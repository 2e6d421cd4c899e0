import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountExportFileName, accountExportSchema } from '#shared/contracts/account-data.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { findUserById } from '../../features/accounts/index.ts';
import { collectAccountData } from './data-export.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/** The player's own data (docs/responsible-play.md): a copy of all of it, as one download. */
export const dataExportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock } = ctx;

    app.get(
      '/api/me/export',
      {
        config: { access: 'user' },
        schema: { response: { 200: accountExportSchema, ...errors } },
      },
      async (request, reply) => {
        const signedIn = requireUser(request);
        const now = clock();
        // One snapshot: the balance, the transactions and the rest tell the same story.
        const data = await db.transaction(
          async (tx) => {
            // The session's copy of the account may be seconds old; the export is of today's.
            const user = await findUserById(tx, signedIn.id);
            if (!user) throw new Error(`signed-in user ${signedIn.id} has no row`);
            return collectAccountData(tx, user, now);
          },
          { isolationLevel: 'repeatable read', accessMode: 'read only' },
        );
        request.log.info({ userId: signedIn.id }, 'account data exported');
        return reply
          .header(
            'content-disposition',
            `attachment; filename="${accountExportFileName(data.profile.username, now)}"`,
          )
          .send(data);
      },
    );
  };
