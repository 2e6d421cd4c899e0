import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a browser request comes from our own pages. Without an Origin header the request does
 * not come from a browser page (browsers send Origin on every cross-origin request and on every
 * unsafe one), so it cannot be a forged cross-site request.
 */
export function isAllowedOrigin(
  request: Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>,
  publicOrigin: string | undefined,
): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  if (publicOrigin !== undefined && origin === publicOrigin) return true;
  return origin === `${request.protocol}://${request.host}`;
}

/** Refuses unsafe requests that another site's page made a browser send (docs/accounts.md). */
export const originGuard = fp(
  async (app: FastifyInstance, options: { publicOrigin: string | undefined }) => {
    // A callback hook: it runs on every request and has nothing to wait for.
    app.addHook('onRequest', (request, _reply, done) => {
      if (UNSAFE_METHODS.has(request.method) && !isAllowedOrigin(request, options.publicOrigin)) {
        done(new AppError('CROSS_ORIGIN_REFUSED', 'Cross-origin request refused'));
        return;
      }
      done();
    });
  },
  { name: 'origin-guard' },
);
