import type { PublicUser } from '#shared/contracts/auth.ts';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema/users.ts';
import { hasAdminPrivileges, viewerOf } from '../../plugins/access.ts';
import { showPublicUser } from './public-user.ts';
import { findSessionUser } from './sessions.ts';

/** Who is signed in, for the page the browser loads. */
export interface PageViewer {
  /** As GET /api/user answers. */
  shown: PublicUser;
  /** As a route open to every player sees them (requireViewer): the page's data is read as them. */
  viewer: User;
}

/**
 * Who is signed in with the session cookie `token` (null: nobody), for the page the browser
 * loads. Checked exactly as an API request's session is.
 */
export async function pageViewer(
  ctx: AppContext,
  token: string | undefined,
): Promise<PageViewer | null> {
  if (!token) return null;
  const now = ctx.clock();
  const found = await findSessionUser(ctx.db, token, ctx.sessionPolicy, now, ctx.sessionCache);
  if (!found) return null;
  const adminPrivileges = hasAdminPrivileges(found.user, ctx.env.ADMIN_2FA_REQUIRED);
  return {
    shown: await showPublicUser(ctx, found.user, now),
    viewer: viewerOf(found.user, adminPrivileges),
  };
}
