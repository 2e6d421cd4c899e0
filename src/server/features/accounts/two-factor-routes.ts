import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicUserSchema } from '#shared/contracts/auth.ts';
import {
  recoveryCodesResponseSchema,
  SECOND_STEP_TRIES,
  SECURITY_MESSAGES,
  twoFactorCodeBodySchema,
  twoFactorDisableBodySchema,
  twoFactorSetupBodySchema,
  twoFactorSetupResponseSchema,
} from '#shared/contracts/account-security.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import type { AppContext } from '../../context.ts';
import { users, type User } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit, resetRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { loadPublicUser } from './public-user.ts';
import { findUserById } from './repository.ts';
import { verifyPassword } from './password.ts';
import { tooManyAttempts } from './throttle.ts';
import { clearPendingSignInCookie, startSession } from './sign-in.ts';
import {
  enableTwoFactor,
  endPendingSignIn,
  eraseTwoFactor,
  issueRecoveryCodes,
  mailTwoFactorChange,
  newTotpSecret,
  PENDING_SIGN_IN_COOKIE,
  setupDetails,
  spendSecondFactor,
  tryPendingSignIn,
} from './two-factor.ts';

const invalidCode = () =>
  new AppError('INVALID_CODE', SECURITY_MESSAGES.invalidCode, {
    fields: { code: SECURITY_MESSAGES.invalidCode },
  });
const signInExpired = () => new AppError('INVALID_CODE', SECURITY_MESSAGES.signInExpired);

/**
 * Two-factor sign-in (docs/accounts.md#account-security): its set-up from the profile, and the
 * login's second step.
 */
export const twoFactorRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, clock, rateLimits } = ctx;
    const errors = {
      400: errorBodySchema,
      401: errorBodySchema,
      403: errorBodySchema,
      409: errorBodySchema,
      429: errorBodySchema,
    };

    /** Counts a code check against the address and the account, and refuses past either limit. */
    async function throttleCode(ip: string, userId: number, now: Date): Promise<void> {
      const perAddress = await hitRateLimit(db, rateLimits.twoFactorPerAddress, ip, now);
      if (perAddress.exceeded) throw tooManyAttempts(perAddress, 'codes from this address');
      await throttleAccount(userId, now);
    }
    /** The account's password, or a 400 under the field: a session alone changes no factor. */
    async function requirePassword(user: User, password: string): Promise<void> {
      if (!(await verifyPassword(user.passwordHash, password))) {
        throw new AppError('VALIDATION_FAILED', SECURITY_MESSAGES.currentPasswordWrong, {
          fields: { password: SECURITY_MESSAGES.currentPasswordWrong },
        });
      }
    }
    async function throttleAccount(userId: number, now: Date): Promise<void> {
      const perUser = await hitRateLimit(db, rateLimits.twoFactorPerUser, String(userId), now);
      if (perUser.exceeded) throw tooManyAttempts(perUser, 'codes for this account');
    }

    app.post(
      '/api/user/2fa/setup',
      {
        config: { access: 'user' },
        schema: {
          body: twoFactorSetupBodySchema,
          response: { 200: twoFactorSetupResponseSchema, ...errors },
        },
      },
      async (request) => {
        const user = requireUser(request);
        await throttleAccount(user.id, clock());
        await requirePassword(user, request.body.password);
        const secret = newTotpSecret();
        // A new set-up replaces one left unfinished; it never touches a secret already on.
        const [updated] = await db
          .update(users)
          .set({ totpPendingSecret: secret })
          .where(and(eq(users.id, user.id), isNull(users.totpSecret)))
          .returning({ id: users.id });
        if (!updated) throw new AppError('CONFLICT', SECURITY_MESSAGES.twoFactorAlreadyOn);
        return setupDetails(user, secret);
      },
    );

    app.post(
      '/api/user/2fa/enable',
      {
        config: { access: 'user' },
        schema: {
          body: twoFactorCodeBodySchema,
          response: { 200: recoveryCodesResponseSchema, ...errors },
        },
      },
      async (request) => {
        const signedIn = requireUser(request);
        const now = clock();
        // The session's copy of the user may be seconds old; the pending secret must be today's.
        const user = await findUserById(db, signedIn.id);
        if (!user) throw new Error(`signed-in user ${signedIn.id} has no row`);
        if (user.totpSecret) throw new AppError('CONFLICT', SECURITY_MESSAGES.twoFactorAlreadyOn);
        if (!user.totpPendingSecret) {
          throw new AppError('CONFLICT', SECURITY_MESSAGES.twoFactorNotSetUp);
        }
        const recoveryCodes = await inTransaction(db, async ({ tx, afterCommit }) => {
          const enabled = await enableTwoFactor(tx, user, request.body.code, now);
          if (!enabled) throw invalidCode();
          const codes = await issueRecoveryCodes(tx, user.id);
          await mailTwoFactorChange(tx, enabled, 'on', now);
          afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
          afterCommit(() => ctx.wakeMail());
          return codes;
        });
        request.log.info({ userId: user.id }, 'two-factor sign-in enabled');
        return { recoveryCodes };
      },
    );

    app.post(
      '/api/user/2fa/disable',
      {
        config: { access: 'user' },
        schema: {
          body: twoFactorDisableBodySchema,
          response: { 200: publicUserSchema, ...errors },
        },
      },
      async (request) => {
        const signedIn = requireUser(request);
        const now = clock();
        const user = await findUserById(db, signedIn.id);
        if (!user) throw new Error(`signed-in user ${signedIn.id} has no row`);
        if (!user.totpSecret) throw new AppError('CONFLICT', SECURITY_MESSAGES.twoFactorOff);
        await throttleCode(request.ip, user.id, now);
        // Both factors, so that a session left open on a shared computer cannot turn it off.
        await requirePassword(user, request.body.password);
        const updated = await inTransaction(db, async ({ tx, afterCommit }) => {
          if (!(await spendSecondFactor(tx, user, request.body.code, now))) throw invalidCode();
          const erased = await eraseTwoFactor(tx, user.id);
          if (!erased) throw new Error(`signed-in user ${user.id} has no row`);
          await mailTwoFactorChange(tx, erased, 'off', now);
          afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
          afterCommit(() => ctx.wakeMail());
          return erased;
        });
        request.log.info({ userId: user.id }, 'two-factor sign-in disabled');
        return loadPublicUser(db, updated, now);
      },
    );

    app.post(
      '/api/login/2fa',
      {
        config: { access: 'public' },
        schema: { body: twoFactorCodeBodySchema, response: { 200: publicUserSchema, ...errors } },
      },
      async (request, reply) => {
        const now = clock();
        const token = request.cookies[PENDING_SIGN_IN_COOKIE];
        const perAddress = await hitRateLimit(db, rateLimits.twoFactorPerAddress, request.ip, now);
        if (perAddress.exceeded) throw tooManyAttempts(perAddress, 'codes from this address');
        const pending = token ? await tryPendingSignIn(db, token, now) : null;
        const expired = () => {
          clearPendingSignInCookie(ctx, request, reply);
          return signInExpired();
        };
        if (!pending) throw expired();

        const user: User | undefined = await findUserById(db, pending.userId);
        if (!user || user.deletedAt || !user.totpSecret) {
          await endPendingSignIn(db, pending.tokenHash);
          throw expired();
        }
        await throttleAccount(user.id, now);

        if (!(await spendSecondFactor(db, user, request.body.code, now))) {
          request.log.info({ event: 'second_step_failed', userId: user.id }, 'wrong code');
          if (pending.attempts < SECOND_STEP_TRIES) throw invalidCode();
          // That was the last try: the password step is spent, and the player starts again.
          await endPendingSignIn(db, pending.tokenHash);
          throw expired();
        }
        // Two right codes sent at once (a TOTP and a recovery code) still open one session.
        if (!(await endPendingSignIn(db, pending.tokenHash))) throw expired();
        clearPendingSignInCookie(ctx, request, reply);
        await resetRateLimit(db, rateLimits.twoFactorPerUser, String(user.id), now);
        await startSession(ctx, request, reply, user);
        return loadPublicUser(db, user, now);
      },
    );
  };
