import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  adminPayoutListQuerySchema,
  adminPayoutSchema,
  completePayoutBodySchema,
  failPayoutBodySchema,
  PAYOUT_MESSAGES,
  payoutIdParamsSchema,
  payoutListQuerySchema,
  payoutRequestBodySchema,
  payoutRequestResponseSchema,
  payoutSchema,
} from '#shared/contracts/payouts.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { findPayoutWithOwner, listOwnPayouts, listPayoutsWithOwners } from './repository.ts';
import { decidePayout, requestPayout } from './service.ts';
import { toAdminPayoutView, toPayoutView } from './view.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

export const payoutRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    async function adminView(id: number) {
      const row = await findPayoutWithOwner(ctx.db, id);
      if (!row) throw new AppError('NOT_FOUND', PAYOUT_MESSAGES.notFound);
      return toAdminPayoutView(row.payout, row.username);
    }

    app.get(
      '/api/payouts',
      {
        config: { access: 'user' },
        schema: {
          querystring: payoutListQuerySchema,
          response: { 200: z.array(payoutSchema), ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        return (await listOwnPayouts(ctx.db, user.id, request.query)).map(toPayoutView);
      },
    );

    app.post(
      '/api/payouts',
      {
        config: { access: 'user' },
        schema: {
          body: payoutRequestBodySchema,
          response: { 201: payoutRequestResponseSchema, ...errors, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const check = await hitRateLimit(
          ctx.db,
          ctx.rateLimits.payoutRequestPerUser,
          String(user.id),
          ctx.clock(),
        );
        if (check.exceeded) {
          throw new AppError('RATE_LIMITED', PAYOUT_MESSAGES.tooMany, {
            retryAfter: check.retryAfterSeconds,
          });
        }
        const { amount, ...details } = request.body;
        const { payout, balanceCents } = await requestPayout(ctx, user.id, {
          amountCents: amount,
          ...details,
        });
        request.log.info({ userId: user.id, payoutId: payout.id }, 'payout requested');
        return reply
          .code(201)
          .send({ payout: toPayoutView(payout), balance: centsToDollarNumber(balanceCents) });
      },
    );

    app.get(
      '/api/admin/payouts',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminPayoutListQuerySchema,
          response: { 200: z.array(adminPayoutSchema), ...errors },
        },
      },
      async (request) =>
        (await listPayoutsWithOwners(ctx.db, request.query)).map((row) =>
          toAdminPayoutView(row.payout, row.username),
        ),
    );

    app.post(
      '/api/admin/payouts/:id/complete',
      {
        config: { access: 'admin' },
        schema: {
          params: payoutIdParamsSchema,
          body: completePayoutBodySchema,
          response: { 200: adminPayoutSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await decidePayout(ctx, request.params.id, {
          outcome: 'complete',
          adminId: admin.id,
          note: request.body?.note,
        });
        request.log.info({ adminId: admin.id, payoutId: request.params.id }, 'payout completed');
        return adminView(request.params.id);
      },
    );

    app.post(
      '/api/admin/payouts/:id/fail',
      {
        config: { access: 'admin' },
        schema: {
          params: payoutIdParamsSchema,
          body: failPayoutBodySchema,
          response: { 200: adminPayoutSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await decidePayout(ctx, request.params.id, {
          outcome: 'fail',
          adminId: admin.id,
          reason: request.body.reason,
        });
        request.log.info({ adminId: admin.id, payoutId: request.params.id }, 'payout failed');
        return adminView(request.params.id);
      },
    );
  };
