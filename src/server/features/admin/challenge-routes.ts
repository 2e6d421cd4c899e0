import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminChallengeListSchema,
  adminDisputeSchema,
  adminPageQuerySchema,
  disputeIdParamsSchema,
  resolveDisputeBodySchema,
} from '#shared/contracts/admin.ts';
import { CHALLENGE_MESSAGES, challengeSchema } from '#shared/contracts/challenges.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../../plugins/access.ts';
import {
  findChallengeRow,
  listChallengeRows,
  resolveDispute,
  toChallengeView,
} from '../challenges/index.ts';
import { escrowBalances, reviewBalances } from '../ledger/index.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** docs/product.md#screens COMPLETED CHALLENGES, and the dispute queue the issue adds. */
export const adminChallengeRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/challenges',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminPageQuerySchema,
          response: { 200: adminChallengeListSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        const rows = await listChallengeRows(ctx.db, {
          viewerId: admin.id,
          status: ['completed'],
          withBalances: true,
          everyone: true,
          ...request.query,
        });
        return rows.map((row) => toChallengeView(row, admin));
      },
    );

    app.get(
      '/api/admin/disputes',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminPageQuerySchema,
          response: { 200: z.array(adminDisputeSchema), ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        const rows = await listChallengeRows(ctx.db, {
          viewerId: admin.id,
          status: ['disputed'],
          withBalances: true,
          everyone: true,
          ...request.query,
        });
        const ids = rows.map((row) => row.challenge.id);
        const [escrows, reviews] = await Promise.all([
          escrowBalances(ctx.db, ids),
          reviewBalances(ctx.db, ids),
        ]);
        return rows.map((row) => ({
          ...toChallengeView(row, admin),
          stakesInEscrow: (escrows.get(row.challenge.id) ?? 0n) > 0n,
          heldForReview: (reviews.get(row.challenge.id) ?? 0n) > 0n,
        }));
      },
    );

    app.post(
      '/api/admin/disputes/:id/resolve',
      {
        config: { access: 'admin' },
        schema: {
          params: disputeIdParamsSchema,
          body: resolveDisputeBodySchema,
          response: { 200: challengeSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await resolveDispute(ctx, request.params.id, { adminId: admin.id, ...request.body });
        request.log.info(
          { adminId: admin.id, challengeId: request.params.id, outcome: request.body.outcome },
          'dispute resolved',
        );
        const row = await findChallengeRow(ctx.db, request.params.id);
        if (!row) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
        return toChallengeView(row, admin);
      },
    );
  };
