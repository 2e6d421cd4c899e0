import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_CLOSE_MESSAGES,
  accountExportFileName,
  accountExportSchema,
  closeAccountBodySchema,
  closeAccountResponseSchema,
} from '#shared/contracts/account-data.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { verifyPassword } from '../auth/password.ts';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { isSecureRequest } from '../auth/sign-in.ts';
import { tooManyAttempts } from '../auth/throttle.ts';
import { findUserById } from '../users/repository.ts';
import { closeOwnAccount } from './close-account.ts';
import { collectAccountData } from './data-export.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

/** The player's own data (DESIGN §11): a copy of all of it, and closing the account. */
export const myDataRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock, rateLimits } = ctx;

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
  };
