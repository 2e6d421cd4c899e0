import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordBodySchema,
  messageResponseSchema,
  passwordResetBodySchema,
  passwordResetCompleteBodySchema,
  revokeOthersResponseSchema,
  SECURITY_MESSAGES,
  sessionIdParamsSchema,
  sessionViewSchema,
  signInResponseSchema,
  verifyEmailBodySchema,
} from '#shared/contracts/account-security.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { pendingSignIns } from '../../db/schema/account-security.ts';
import { users, type User } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { beginSignIn } from './sign-in.ts';
import { tooManyAttempts } from './throttle.ts';
import { enqueueMail } from '../mail/index.ts';
import { hasVerifiedEmail, loadPublicUser } from './public-user.ts';
import { findUserByUsername } from './repository.ts';
import { announceEndedSessions, deleteSessions, listSessions } from './devices.ts';
import { issueLink, redeemLink, voidLinks } from './mailed-links.ts';
import { passwordChangedMail, resetLinkMail } from './security-mail.ts';
import { queueVerificationMail } from './email-verification.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  429: errorBodySchema,
};

function invalidLink(): AppError {
  return new AppError('INVALID_TOKEN', SECURITY_MESSAGES.invalidLink);
}

/**
 * Account security of docs/accounts.md#account-security that needs no second factor: changing and
 * resetting the password, proving the e-mail address, and the list of signed-in devices.
 */
export const accountSecurityRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock, rateLimits } = ctx;

    /**
     * Sets a new password, voids every reset link and half-done two-factor sign-in, and ends
     * every session but `keep` (null: all of them); mails the player.
     */
    async function replacePassword(
      uow: UnitOfWork,
      user: User,
      passwordHash: string,
      how: 'changed' | 'reset',
      keep: string | null,
    ): Promise<void> {
      const now = clock();
      const { tx, afterCommit } = uow;
      await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
      await voidLinks(tx, user.id, 'password_reset', now);
      await tx.delete(pendingSignIns).where(eq(pendingSignIns.userId, user.id));
      const ended = await deleteSessions(tx, user.id, { except: keep });
      afterCommit(() => announceEndedSessions(ctx.bus, ended));
      // The session that made the change keeps a copy of the account, old hash included.
      afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
      if (hasVerifiedEmail(user)) {
        await enqueueMail(tx, [passwordChangedMail(user, how, now)]);
        afterCommit(() => ctx.wakeMail());
      }
    }

    app.post(
      '/api/user/password',
      {
        config: { access: 'user' },
        schema: {
          body: changePasswordBodySchema,
          response: { 200: messageResponseSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const check = await hitRateLimit(
          db,
          rateLimits.passwordChangePerUser,
          String(user.id),
          clock(),
        );
        if (check.exceeded) throw tooManyAttempts(check, 'password changes');
        const { currentPassword, newPassword } = request.body;
        if (!(await verifyPassword(user.passwordHash, currentPassword))) {
          throw new AppError('VALIDATION_FAILED', SECURITY_MESSAGES.currentPasswordWrong, {
            fields: { currentPassword: SECURITY_MESSAGES.currentPasswordWrong },
          });
        }
        if (currentPassword === newPassword) {
          throw new AppError('VALIDATION_FAILED', SECURITY_MESSAGES.samePassword, {
            fields: { newPassword: SECURITY_MESSAGES.samePassword },
          });
        }
        const passwordHash = await hashPassword(newPassword);
        await inTransaction(db, (uow) =>
          replacePassword(uow, user, passwordHash, 'changed', request.sessionTokenHash),
        );
        return { message: SECURITY_MESSAGES.passwordChanged };
      },
    );

    /**
     * Mails a reset link when the account exists and has a verified address, at most
     * `passwordResetPerAccount` times in its window, counted by the account the name finds
     * (however it is spelled). It runs after the answer has left, so neither the answer nor its
     * time can tell who exists or how many links went: past the limit no more mail goes, so a
     * stranger cannot fill a player's mailbox with links.
     */
    async function mailResetLink(username: string): Promise<void> {
      const user = await findUserByUsername(db, username);
      if (!user || user.deletedAt || !hasVerifiedEmail(user)) return;
      const now = clock();
      const perAccount = await hitRateLimit(
        db,
        rateLimits.passwordResetPerAccount,
        `user:${user.id}`,
        now,
      );
      if (perAccount.exceeded) return;
      await inTransaction(db, async ({ tx, afterCommit }) => {
        const token = await issueLink(
          tx,
          { userId: user.id, purpose: 'password_reset', email: user.email },
          now,
        );
        const url = `${ctx.linkBase}/reset-password?token=${encodeURIComponent(token)}`;
        await enqueueMail(tx, [resetLinkMail(user, url, token)]);
        afterCommit(() => ctx.wakeMail());
      });
    }

    app.post(
      '/api/password-reset',
      {
        config: { access: 'public' },
        schema: {
          body: passwordResetBodySchema,
          response: { 202: messageResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const now = clock();
        const perAddress = await hitRateLimit(
          db,
          rateLimits.passwordResetPerAddress,
          request.ip,
          now,
        );
        if (perAddress.exceeded) throw tooManyAttempts(perAddress, 'reset requests');
        const { username } = request.body;
        setImmediate(() => {
          mailResetLink(username).catch((error: unknown) => {
            request.log.error({ err: error }, 'could not mail a password-reset link');
          });
        });
        return reply.code(202).send({ message: SECURITY_MESSAGES.resetRequested });
      },
    );

    app.post(
      '/api/password-reset/complete',
      {
        config: { access: 'public' },
        schema: {
          body: passwordResetCompleteBodySchema,
          response: { 200: signInResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        const check = await hitRateLimit(db, rateLimits.linkPerAddress, request.ip, clock());
        if (check.exceeded) throw tooManyAttempts(check, 'attempts from this address');
        const passwordHash = await hashPassword(request.body.newPassword);
        const user = await inTransaction(db, async (uow) => {
          const link = await redeemLink(uow.tx, 'password_reset', request.body.token, clock());
          if (!link) return null;
          const [owner] = await uow.tx
            .select()
            .from(users)
            .where(and(eq(users.id, link.userId), isNull(users.deletedAt)))
            .for('update');
          // A link mailed to an address the account no longer has, or no longer has verified,
          // opens nothing.
          if (!owner || !hasVerifiedEmail(owner) || owner.email !== link.email) return null;
          await replacePassword(uow, owner, passwordHash, 'reset', null);
          return { ...owner, passwordHash };
        });
        if (!user) throw invalidLink();
        // The mailbox proves who asked, not the second factor: with two-factor on, the player
        // still enters a code before a session starts.
        return (await beginSignIn(ctx, request, reply, user)) ?? loadPublicUser(db, user, clock());
      },
    );

    app.post(
      '/api/user/verify-email',
      {
        config: { access: 'public' },
        schema: {
          body: verifyEmailBodySchema,
          response: { 200: messageResponseSchema, ...errors },
        },
      },
      async (request) => {
        const check = await hitRateLimit(db, rateLimits.linkPerAddress, request.ip, clock());
        if (check.exceeded) throw tooManyAttempts(check, 'attempts from this address');
        const now = clock();
        const verified = await inTransaction(db, async ({ tx }) => {
          const link = await redeemLink(tx, 'email_verification', request.body.token, now);
          if (!link) return null;
          const [user] = await tx
            .update(users)
            .set({ emailVerifiedAt: now })
            .where(
              and(eq(users.id, link.userId), eq(users.email, link.email), isNull(users.deletedAt)),
            )
            .returning({ id: users.id });
          return user ?? null;
        });
        if (!verified) throw invalidLink();
        await ctx.bus.publish({ type: 'user-changed', userId: verified.id });
        return { message: SECURITY_MESSAGES.emailVerified };
      },
    );

    app.post(
      '/api/user/verify-email/resend',
      {
        config: { access: 'user' },
        schema: { response: { 202: messageResponseSchema, ...errors } },
      },
      async (request, reply) => {
        const user = requireUser(request);
        if (!user.email) {
          throw new AppError('VALIDATION_FAILED', SECURITY_MESSAGES.noEmail);
        }
        if (hasVerifiedEmail(user)) {
          throw new AppError('CONFLICT', SECURITY_MESSAGES.alreadyVerified);
        }
        const now = clock();
        const check = await hitRateLimit(
          db,
          rateLimits.verificationMailPerUser,
          String(user.id),
          now,
        );
        if (check.exceeded) throw tooManyAttempts(check, 'verification mails');
        const email = user.email;
        await inTransaction(db, ({ tx }) =>
          queueVerificationMail(tx, ctx.linkBase, user, email, now),
        );
        ctx.wakeMail();
        return reply.code(202).send({ message: SECURITY_MESSAGES.verificationSent });
      },
    );

    app.get(
      '/api/user/sessions',
      {
        config: { access: 'user' },
        schema: { response: { 200: z.array(sessionViewSchema), ...errors } },
      },
      async (request) => {
        const user = requireUser(request);
        return listSessions(db, user.id, request.sessionTokenHash, ctx.sessionPolicy, clock());
      },
    );

    app.delete(
      '/api/user/sessions/:id',
      {
        config: { access: 'user' },
        schema: {
          params: sessionIdParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const ended = await deleteSessions(db, user.id, { only: request.params.id });
        if (ended.length === 0) {
          throw new AppError('NOT_FOUND', SECURITY_MESSAGES.sessionNotFound);
        }
        await announceEndedSessions(ctx.bus, ended);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/user/sessions/revoke-others',
      {
        config: { access: 'user' },
        schema: { response: { 200: revokeOthersResponseSchema, ...errors } },
      },
      async (request) => {
        const user = requireUser(request);
        const ended = await deleteSessions(db, user.id, { except: request.sessionTokenHash });
        await announceEndedSessions(ctx.bus, ended);
        return { revoked: ended.length };
      },
    );
  };
