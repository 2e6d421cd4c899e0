import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_CLOSE_MESSAGES,
  closeAccountBodySchema,
  closeAccountResponseSchema,
} from '#shared/contracts/account-data.ts';
import {
  ADMIN_MESSAGES,
  deleteUserBodySchema,
  deleteUserResponseSchema,
} from '#shared/contracts/admin.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { userIdParamsSchema } from '#shared/contracts/wallet.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import {
  findUserById,
  isSecureRequest,
  SESSION_COOKIE,
  tooManyAttempts,
  verifyPassword,
} from '../../features/accounts/index.ts';
import { closeOwnAccount } from './close-own-account.ts';
import { deleteUser } from './delete-user.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/**
 * Closing an account: the player's own (with their password) and an admin's deletion, one set of
 * money rules for both (`close-account.ts`).
 */
export const accountClosingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock, rateLimits } = ctx;

    app.post(
      '/api/me/close',
      {
        config: { access: 'user' },
        schema: {
          body: closeAccountBodySchema,
          response: { 200: closeAccountResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const signedIn = requireUser(request);
        const check = await hitRateLimit(
          db,
          rateLimits.accountClosePerUser,
          String(signedIn.id),
          clock(),
        );
        if (check.exceeded) throw tooManyAttempts(check, ACCOUNT_CLOSE_MESSAGES.tooMany);
        // The password as it is now, not as the session's copy of the account last saw it.
        const user = await findUserById(db, signedIn.id);
        if (!user) throw new Error(`signed-in user ${signedIn.id} has no row`);
        // A session alone, left open on a shared computer, does not close an account.
        if (!(await verifyPassword(user.passwordHash, request.body.password))) {
          throw new AppError('VALIDATION_FAILED', SECURITY_MESSAGES.currentPasswordWrong, {
            fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
          });
        }
        const summary = await closeOwnAccount(ctx, user.id);
        request.log.info({ userId: user.id }, 'account closed by the player');
        // Every session ended with the account; this browser forgets its cookie as at logout.
        reply.clearCookie(SESSION_COOKIE, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecureRequest(ctx, request),
        });
        return {
          message: ACCOUNT_CLOSE_MESSAGES.closed,
          unclaimed: centsToDollarNumber(summary.unclaimedCents),
        };
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
  };
