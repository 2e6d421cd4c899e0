import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerHealthSchema } from '#shared/contracts/admin.ts';
import { INTEGER_ID_MAX } from '#shared/contracts/ids.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  adminBalanceBodySchema,
  adminBalanceResponseSchema,
  adminUserSchema,
  userIdParamsSchema,
} from '#shared/contracts/wallet.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../plugins/access.ts';
import { checkLedgerInvariants } from '../ledger/index.ts';
import { playBreakOf, suspensionOf } from '../accounts/index.ts';
import { adjustBalance } from './adjust-balance.ts';
import { adminChallengeRoutes } from './challenge-routes.ts';
import { listUsersWithBalances } from './repository.ts';
import { adminReportRoutes } from './report-routes.ts';
import { adminTaxReportRoutes } from './tax-report-routes.ts';
import { adminVerificationRoutes } from './verification-routes.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(200),
  offset: z.coerce.number().int().min(0).max(INTEGER_ID_MAX).default(0),
});

const idempotencyHeaderSchema = z.object({
  'idempotency-key': z.string().min(8).max(200).optional(),
});

export const adminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(adminChallengeRoutes(ctx));
    await app.register(adminVerificationRoutes(ctx));
    await app.register(adminReportRoutes(ctx));
    await app.register(adminTaxReportRoutes(ctx));

    app.get(
      '/api/admin/users',
      {
        config: { access: 'admin' },
        schema: {
          querystring: listQuerySchema,
          response: { 200: z.array(adminUserSchema), ...errors },
        },
      },
      async (request) => {
        const rows = await listUsersWithBalances(ctx.db, request.query);
        const now = ctx.clock();
        return rows.map(({ user, balanceCents }) => ({
          id: user.id,
          username: user.username,
          balance: centsToDollarNumber(balanceCents),
          isAdmin: user.isAdmin,
          email: user.email,
          phoneNumber: user.phoneNumber,
          createdAt: user.createdAt.toISOString(),
          suspension: suspensionOf(user, now),
          playBreak: playBreakOf(user, now),
        }));
      },
    );

    app.post(
      '/api/admin/users/:id/balance',
      {
        config: { access: 'admin' },
        schema: {
          params: userIdParamsSchema,
          body: adminBalanceBodySchema,
          headers: idempotencyHeaderSchema,
          response: { 200: adminBalanceResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        const balanceCents = await adjustBalance(ctx, {
          adminId: admin.id,
          userId: request.params.id,
          amountCents: request.body.amount,
          reason: request.body.reason,
          requestKey: request.headers['idempotency-key'],
        });
        request.log.info({ adminId: admin.id, userId: request.params.id }, 'balance adjusted');
        return { balance: centsToDollarNumber(balanceCents) };
      },
    );

    app.get(
      '/api/admin/ledger-health',
      {
        config: { access: 'admin' },
        schema: { response: { 200: ledgerHealthSchema, ...errors } },
      },
      async () => ({
        ...(await checkLedgerInvariants(ctx.db)),
        checkedAt: ctx.clock().toISOString(),
      }),
    );
  };
