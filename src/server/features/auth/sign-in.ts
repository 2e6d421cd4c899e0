import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema/users.ts';
import { describeBrowser, recordDevice } from '../account/devices.ts';
import { newSignInMail } from '../account/security-mail.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hasVerifiedEmail } from '../users/public-user.ts';
import { createSession, hashToken, revokeSession, SESSION_COOKIE } from './sessions.ts';

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
  const device = { userAgent: request.headers['user-agent'] ?? null, ipAddress: request.ip };
  const { token } = await createSession(ctx.db, user.id, ctx.sessionPolicy, now, device);
  if ((await recordDevice(ctx.db, user.id, device, now)) === 'new' && hasVerifiedEmail(user)) {
    await enqueueMail(ctx.db, [
      newSignInMail(
        user,
        { browser: describeBrowser(device.userAgent), address: device.ipAddress },
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
