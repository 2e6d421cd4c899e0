import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADMIN_MESSAGES,
  deleteUserBodySchema,
  deleteUserResponseSchema,
  ledgerHealthSchema,
  suspendUserBodySchema,
  suspendUserResponseSchema,
  unsuspendUserBodySchema,
  unsuspendUserResponseSchema,
} from '#shared/contracts/admin.ts';
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
import { checkLedgerInvariants } from '../ledger/invariants.ts';
import { playBreakOf, suspensionOf } from '../users/suspension.ts';
import { adjustBalance } from './adjust-balance.ts';
import { adminChallengeRoutes } from './challenge-routes.ts';
import { deleteUser } from './delete-user.ts';
import { listUsersWithBalances } from './repository.ts';
import { adminReportRoutes } from './report-routes.ts';
import { suspendUser, unsuspendUser } from './suspend-user.ts';
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

    app.delete(
      '/api/admin/users/:id',
      {
        config: { access: 'admin' },
        schema: {
          params: userIdParamsSchema,
          body: deleteUserBodySchema,
          response: { 200: deleteUserResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        const summary = await deleteUser(ctx, admin.id, request.params.id, request.body?.reason);
        request.log.info({ adminId: admin.id, userId: request.params.id }, 'user deleted');
        return {
          message: ADMIN_MESSAGES.userDeleted,
          userId: request.params.id,
          cancelledChallengeIds: summary.cancelledChallengeIds,
          disputedChallengeIds: summary.disputedChallengeIds,
          failedPayoutIds: summary.failedPayoutIds,
          unclaimed: centsToDollarNumber(summary.unclaimedCents),
        };
      },
    );

    app.post(
      '/api/admin/users/:id/suspend',
      {
        config: { access: 'admin' },
        schema: {
          params: userIdParamsSchema,
          body: suspendUserBodySchema,
          response: { 200: suspendUserResponseSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        const { reason, until } = request.body;
        const summary = await suspendUser(ctx, {
          adminId: admin.id,
          userId: request.params.id,
          reason,
          until: until === undefined ? undefined : new Date(until),
        });
        request.log.info({ adminId: admin.id, userId: request.params.id }, 'user suspended');
        return { message: ADMIN_MESSAGES.userSuspended, userId: request.params.id, ...summary };
      },
    );

    app.post(
      '/api/admin/users/:id/unsuspend',
      {
        config: { access: 'admin' },
        schema: {
          params: userIdParamsSchema,
          body: unsuspendUserBodySchema,
          response: { 200: unsuspendUserResponseSchema, ...errors, 409: errorBodySchema },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await unsuspendUser(ctx, {
          adminId: admin.id,
          userId: request.params.id,
          reason: request.body?.reason,
        });
        request.log.info({ adminId: admin.id, userId: request.params.id }, 'user unsuspended');
        return { message: ADMIN_MESSAGES.userUnsuspended, userId: request.params.id };
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
