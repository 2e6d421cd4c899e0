import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import type { User } from '../db/schema/users.ts';
import { AppError } from '../errors.ts';

/** Who may call a route. Every API route must say it: the route table is the permission map. */
export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    currentUser: User | null;
    sessionTokenHash: string | null;
    /** Whether the signed-in user may use admin powers now: an admin, with two-factor if due. */
    adminPrivileges: boolean;
  }
}

export const UNAUTHENTICATED_MESSAGE = 'Unauthorized: please log in';
export const ADMIN_REQUIRED_MESSAGE = 'Admin privileges required';

/** The signed-in user of a route declared `user` or `admin`; the access hook guarantees it. */
export function requireUser(request: FastifyRequest): User {
  if (!request.currentUser) throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
  return request.currentUser;
}

/**
 * The signed-in user as a route open to every player should treat them (challenges, uploads). An
 * admin who must still set up two-factor sign-in (docs/accounts.md#account-security) has a player's
 * view there too, not only a refusal on the admin routes: no one else's e-mail, licence or dispute
 * evidence on a password alone.
 */
export function requireViewer(request: FastifyRequest): User {
  return viewerOf(requireUser(request), request.adminPrivileges);
}

/** Whether `user` may use admin powers now: an admin, with two-factor sign-in on if required. */
export function hasAdminPrivileges(user: User, adminTwoFactorRequired: boolean): boolean {
  return user.isAdmin && !(adminTwoFactorRequired && user.totpSecret === null);
}

/** `user` as requireViewer gives them, for a caller that is not a route (the page's data). */
export function viewerOf(user: User, adminPrivileges: boolean): User {
  return user.isAdmin && !adminPrivileges ? { ...user, isAdmin: false } : user;
}

/** A signed-in session: whose it is, and the hash its revocation is announced by. */
export interface FoundSession {
  user: User;
  tokenHash: string;
}

export interface AccessOptions {
  /** The cookie that carries the session token. */
  sessionCookie: string;
  /** The session a token opens, if it opens one (the accounts feature's sessions). */
  findSession: (token: string) => Promise<FoundSession | null>;
  /** ADMIN_2FA_REQUIRED: admin powers need two-factor sign-in on. */
  adminTwoFactorRequired: boolean;
}

export const accessControl = fp(
  async (app: FastifyInstance, options: AccessOptions) => {
    app.decorateRequest('currentUser', null);
    app.decorateRequest('sessionTokenHash', null);
    app.decorateRequest('adminPrivileges', false);

    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/') && route.config?.access === undefined) {
        throw new Error(`Route ${route.method} ${route.url} does not declare config.access`);
      }
    });

    // onRequest, not preHandler: an anonymous caller is refused before its body is even read.
    app.addHook('onRequest', async (request: FastifyRequest) => {
      const access = request.routeOptions.config.access;
      if (access === undefined || access === 'public') return;
      const token = request.cookies[options.sessionCookie];
      const found = token ? await options.findSession(token) : null;
      if (!found) throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
      request.currentUser = found.user;
      request.sessionTokenHash = found.tokenHash;
      request.adminPrivileges = hasAdminPrivileges(found.user, options.adminTwoFactorRequired);
      if (access === 'admin' && !found.user.isAdmin) {
        throw new AppError('FORBIDDEN', ADMIN_REQUIRED_MESSAGE);
      }
      if (access === 'admin' && !request.adminPrivileges) {
        throw new AppError('TWO_FACTOR_SETUP_REQUIRED', SECURITY_MESSAGES.adminNeedsTwoFactor);
      }
    });
  },
  { name: 'access-control', dependencies: ['@fastify/cookie'] },
);
