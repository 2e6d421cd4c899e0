import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The browser's device id (docs/accounts.md#devices): 128 random bits in a long-lived cookie,
 * set on the first response of any kind to a browser that has none, and kept across sign-outs and
 * accounts. Sign-ins store only its hash; two accounts signed in with one id share a device.
 */
export const DEVICE_COOKIE = 'device';

// 16 bytes in base64url; anything else in the cookie (a truncated value, another site's) is
// replaced.
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const DEVICE_COOKIE_DAYS = 400;

declare module 'fastify' {
  interface FastifyRequest {
    /** This browser's device id, from its cookie or new with this response. */
    deviceId: string;
    /** Whether this response sets the device cookie. */
    deviceIdIsNew: boolean;
  }
}

export interface DeviceCookieOptions {
  /** The cookie is `Secure` when PUBLIC_URL is https, or the request came by https. */
  publicOrigin: string | undefined;
}

async function deviceCookiePlugin(app: FastifyInstance, options: DeviceCookieOptions) {
  const httpsOrigin = options.publicOrigin?.startsWith('https:') === true;
  app.decorateRequest('deviceId', '');
  app.decorateRequest('deviceIdIsNew', false);
  app.addHook('onRequest', async (request, reply) => {
    const current = request.cookies[DEVICE_COOKIE];
    if (current !== undefined && DEVICE_ID.test(current)) {
      request.deviceId = current;
      return;
    }
    request.deviceId = randomBytes(16).toString('base64url');
    request.deviceIdIsNew = true;
    reply.setCookie(DEVICE_COOKIE, request.deviceId, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: httpsOrigin || request.protocol === 'https',
      maxAge: DEVICE_COOKIE_DAYS * 86_400,
    });
  });
  // A shared cache (a CDN) may store a response that sets a cookie, and would then hand one
  // device id to every browser: the answer that sets it is never stored, whatever it is (a
  // hashed asset is cached for good otherwise). Only a browser's first response is concerned.
  app.addHook('onSend', async (request, reply) => {
    if (request.deviceIdIsNew) void reply.header('cache-control', 'private, no-store');
  });
}

export const deviceCookie = fp(deviceCookiePlugin, { name: 'device-cookie' });
