import type { PublicUser } from '#shared/contracts/auth.ts';
import type { AppContext } from '../../context.ts';
import { showPublicUser } from '../users/public-user.ts';
import { findSessionUser } from './sessions.ts';

/**
 * Who is signed in with the session cookie `token`, as GET /api/user answers (null: nobody), for
 * the page the browser loads. Checked exactly as an API request's session is.
 */
export async function pageUser(
  ctx: AppContext,
  token: string | undefined,
): Promise<PublicUser | null> {
  if (!token) return null;
  const now = ctx.clock();
  const found = await findSessionUser(ctx.db, token, ctx.sessionPolicy, now, ctx.sessionCache);
  return found ? showPublicUser(ctx, found.user, now) : null;
}
