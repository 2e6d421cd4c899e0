import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema/users.ts';
import { hashDeviceId, recordDeviceSignIn } from './device-links.ts';
import { describeBrowser, recordDevice } from './devices.ts';
import { newSignInMail } from './security-mail.ts';
import { enqueueMail } from '../mail/index.ts';
import { hasVerifiedEmail } from './public-user.ts';
import { createSession, hashToken, revokeSession, SESSION_COOKIE } from './sessions.ts';
import {
  createPendingSignIn,
  PENDING_SIGN_IN_COOKIE,
  PENDING_SIGN_IN_PATH,
  SECOND_STEP_MS,
} from './two-factor.ts';

/** Whether cookies set for `request` must be `Secure`: PUBLIC_URL is https, or the request was. */
export function isSecureRequest(ctx: AppContext, request: FastifyRequest): boolean {
  return ctx.publicOrigin?.startsWith('https:') === true || request.protocol === 'https';
}

/**
 * Signs `user` in on this browser: a fresh session token in the cookie, with the browser and
 * address the devices list shows. Every way in (registration, login, its second step, a password
 * reset) ends here.
 */
export async function startSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<void> {
  // A sign-in always gets a fresh token; any token the browser had before is revoked, so a
  // token planted before login (session fixation) is worthless afterwards.
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await revokeSession(ctx.db, ctx.bus, hashToken(previous));
  const now = ctx.clock();
  const device = {
    deviceHash: hashDeviceId(request.deviceId),
    userAgent: request.headers['user-agent'] ?? null,
    ipAddress: request.ip,
    // The place is for the devices list: a broken city database must not keep anyone from
    // signing in, and so from withdrawing. The money routes still refuse on it (fail closed).
    place: await ctx.geo.locate(request.ip).catch((error: unknown) => {
      request.log.error({ err: error }, 'the city database could not be read');
      return null;
    }),
  };
  const { token } = await createSession(ctx.db, user.id, ctx.sessionPolicy, now, device);
  await recordDeviceSignIn(ctx.db, user.id, device, now);
  if ((await recordDevice(ctx.db, user.id, device, now)) === 'new' && hasVerifiedEmail(user)) {
    await enqueueMail(ctx.db, [
      newSignInMail(
        user,
        {
          browser: describeBrowser(device.userAgent),
          address: device.ipAddress,
          place: device.place?.label ?? null,
        },
        now,
        `${ctx.linkBase}/profile`,
      ),
    ]);
    ctx.wakeMail();
  }
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(ctx, request),
    maxAge: Math.floor(ctx.sessionPolicy.maxAgeMs / 1000),
  });
}

/**
 * What follows a proven password: a session, or, when the player has two-factor sign-in on, a
 * pending sign-in that waits five minutes for a code (`POST /api/login/2fa`) and opens nothing
 * before. Answers null when the session has started. Every password way in (login, a completed
 * password reset) goes through here, so none of them skips the second factor.
 */
export async function beginSignIn(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
): Promise<{ twoFactorRequired: true } | null> {
  if (user.totpSecret === null) {
    await startSession(ctx, request, reply, user);
    return null;
  }
  const token = await createPendingSignIn(ctx.db, user.id, ctx.clock());
  reply.setCookie(PENDING_SIGN_IN_COOKIE, token, {
    path: PENDING_SIGN_IN_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(ctx, request),
    maxAge: SECOND_STEP_MS / 1000,
  });
  return { twoFactorRequired: true };
}

/** Forgets the pending sign-in cookie once its second step is over, either way. */
export function clearPendingSignInCookie(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.clearCookie(PENDING_SIGN_IN_COOKIE, {
    path: PENDING_SIGN_IN_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(ctx, request),
  });
}
