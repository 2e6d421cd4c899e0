import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  DELETED_USERNAME_PREFIX,
  loginBodySchema,
  publicUserSchema,
  registerBodySchema,
} from '#shared/contracts/auth.ts';
import { signInResponseSchema } from '#shared/contracts/account-security.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit, resetRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { queueVerificationMail } from './email-verification.ts';
import { requirePlayableLocation } from './location.ts';
import { loadPublicUser, showPublicUser, toPublicUser } from './public-user.ts';
import { findUserByUsername, insertUser } from './repository.ts';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password.ts';
import { hashToken, revokeSession, SESSION_COOKIE } from './sessions.ts';
import { beginSignIn, isSecureRequest, startSession } from './sign-in.ts';
import { tooManyAttempts } from './throttle.ts';

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock, rateLimits } = ctx;

    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      429: errorBodySchema,
    };

    app.get(
      '/api/user',
      {
        config: { access: 'user' },
        schema: { response: { 200: publicUserSchema, 401: errorBodySchema } },
      },
      async (request) => {
        return showPublicUser(ctx, requireUser(request), clock());
      },
    );

    app.post(
      '/api/register',
      {
        config: { access: 'public' },
        schema: { body: registerBodySchema, response: { 201: publicUserSchema, ...errors } },
      },
      async (request, reply) => {
        const check = await hitRateLimit(db, rateLimits.registerPerAddress, request.ip, clock());
        if (check.exceeded) throw tooManyAttempts(check, 'registrations from this address');
        const body = request.body;
        await requirePlayableLocation(ctx, request, body.state ?? null, 'state');
        // Deleted accounts are renamed deleted_user_<id>; nobody may register into that space.
        if (body.username.toLowerCase().startsWith(DELETED_USERNAME_PREFIX)) {
          throw new AppError('USERNAME_TAKEN', AUTH_MESSAGES.usernameReserved, {
            fields: { username: AUTH_MESSAGES.usernameReserved },
          });
        }
        if (await findUserByUsername(db, body.username)) {
          throw new AppError('USERNAME_TAKEN', AUTH_MESSAGES.usernameTaken, {
            fields: { username: AUTH_MESSAGES.usernameTaken },
          });
        }
        const user = await insertUser(db, {
          username: body.username,
          passwordHash: await hashPassword(body.password),
          phoneNumber: body.phoneNumber,
          email: body.email ?? null,
          isOver18: true,
          state: body.state ?? null,
        });
        // Two registrations of one name can pass the check above together; the unique index
        // lets only one insert through.
        if (!user) {
          throw new AppError('USERNAME_TAKEN', AUTH_MESSAGES.usernameTaken, {
            fields: { username: AUTH_MESSAGES.usernameTaken },
          });
        }
        if (user.email) {
          await queueVerificationMail(db, ctx.linkBase, user, user.email, clock());
          ctx.wakeMail();
        }
        await startSession(ctx, request, reply, user);
        request.log.info({ userId: user.id }, 'user registered');
        return reply.code(201).send(toPublicUser(user, clock()));
      },
    );

    app.post(
      '/api/login',
      {
        config: { access: 'public' },
        schema: {
          body: loginBodySchema,
          // A player with two-factor sign-in on gets no session yet: a code is due
          // (docs/accounts.md#account-security).
          response: { 200: signInResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { username, password } = request.body;
        const now = clock();
        // The account's guesses are counted by the account the name finds, however it is
        // spelled; a name that finds none is counted by its own (ASCII) lower case.
        const user = await findUserByUsername(db, username);
        const accountKey = user ? `user:${user.id}` : `name:${username.toLowerCase()}`;
        const perAccount = await hitRateLimit(db, rateLimits.loginPerUsername, accountKey, now);
        const perAddress = await hitRateLimit(db, rateLimits.loginPerAddress, request.ip, now);
        if (perAccount.exceeded)
          throw tooManyAttempts(perAccount, 'login attempts for this account');
        if (perAddress.exceeded)
          throw tooManyAttempts(perAddress, 'login attempts from this address');

        const valid = user
          ? await verifyPassword(user.passwordHash, password)
          : await burnPasswordCheck(password).then(() => false);
        if (!user || !valid) {
          request.log.info({ event: 'login_failed' }, 'login failed');
          throw new AppError('INVALID_CREDENTIALS', AUTH_MESSAGES.invalidCredentials);
        }
        await resetRateLimit(db, rateLimits.loginPerUsername, accountKey, now);
        return (await beginSignIn(ctx, request, reply, user)) ?? loadPublicUser(db, user, now);
      },
    );

    app.post(
      '/api/logout',
      {
        config: { access: 'public' },
        schema: { response: { 204: z.null(), 403: errorBodySchema } },
      },
      async (request, reply) => {
        const token = request.cookies[SESSION_COOKIE];
        if (token) await revokeSession(db, ctx.bus, hashToken(token));
        reply.clearCookie(SESSION_COOKIE, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecureRequest(ctx, request),
        });
        return reply.code(204).send(null);
      },
    );
  };
