import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { transactionPageSchema, transactionsQuerySchema } from '#shared/contracts/wallet.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { listWalletMovements } from './transactions.ts';
import { toTransactionView } from './transaction-view.ts';

export const walletRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/transactions',
      {
        config: { access: 'user' },
        schema: {
          querystring: transactionsQuerySchema,
          response: { 200: transactionPageSchema, 400: errorBodySchema, 401: errorBodySchema },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const { limit, before } = request.query;
        // One extra row tells whether an older page exists.
        const rows = await listWalletMovements(ctx.db, user.id, {
          limit: limit + 1,
          ...(before === undefined ? {} : { beforePostingId: BigInt(before) }),
        });
        const page = rows.slice(0, limit);
        const oldest = page.at(-1);
        return {
          items: page.map(toTransactionView),
          nextBefore: rows.length > limit && oldest ? Number(oldest.postingId) : null,
        };
      },
    );
  };
