import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityHeadersOptions {
  /** PUBLIC_URL: https there turns on HSTS and names the WebSocket origin in the CSP. */
  publicUrl: string | undefined;
  /** Stripe.js and its frames are allowed only when card payments really go through Stripe. */
  stripeEnabled: boolean;
}

// Stripe's own list (stripe.com/docs/security/guide, "Content Security Policy"): Stripe.js, its
// Elements frames and 3-D Secure pages, and the API Stripe.js calls from the page.
const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAMES = [
  'https://js.stripe.com',
  'https://*.js.stripe.com',
  'https://hooks.stripe.com',
];
const STRIPE_API = 'https://api.stripe.com';

/**
 * The Content-Security-Policy of every response. The built client has no inline script (Vite
 * emits modules and a stylesheet), so scripts come from this origin only. Styles allow
 * 'unsafe-inline' because Radix's scroll lock writes a <style> element when a dialog opens; a
 * style cannot run code, and everything that can (scripts, frames, objects, forms, base) is shut.
 * `connect-src 'self'` covers same-origin ws:/wss: in current browsers; PUBLIC_URL's WebSocket
 * origin is named too, for a page served behind a proxy under that address.
 */
export function contentSecurityPolicy(options: SecurityHeadersOptions): string {
  const connect = ["'self'"];
  if (options.publicUrl) {
    const url = new URL(options.publicUrl);
    connect.push(`${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`);
  }
  const script = ["'self'"];
  const frame: string[] = [];
  if (options.stripeEnabled) {
    script.push(...STRIPE_SCRIPTS);
    frame.push(...STRIPE_FRAMES);
    connect.push(STRIPE_API);
  }
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', script],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // QR codes and previews of a picked file are drawn as data: and blob: images.
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', connect],
    ['media-src', ["'self'", 'blob:']],
    ['frame-src', frame.length > 0 ? frame : ["'none'"]],
    ['worker-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * Browser-facing hardening on every response (DESIGN §4, issue 9): the CSP above, no MIME
 * sniffing, no framing by other sites, a referrer that never carries our paths elsewhere, and
 * HSTS once the site is served over https. A route that set its own policy (an uploaded file is
 * served with `default-src 'none'; sandbox`) keeps it.
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const policy = contentSecurityPolicy(options);
    const https = options.publicUrl?.startsWith('https:') === true;
    app.addHook('onSend', async (request, reply, payload) => {
      // API answers are one person's data: no shared cache may keep them, and the browser asks
      // again rather than reuse one (a route that means otherwise says so itself).
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
        void reply.header('cache-control', 'no-store');
      if (!reply.hasHeader('content-security-policy'))
        void reply.header('content-security-policy', policy);
      void reply.header('x-content-type-options', 'nosniff');
      void reply.header('x-frame-options', 'DENY');
      void reply.header('referrer-policy', 'strict-origin-when-cross-origin');
      void reply.header('cross-origin-opener-policy', 'same-origin');
      void reply.header('cross-origin-resource-policy', 'same-origin');
      // The microphone is for voice chat on our own pages; nothing else is ever asked for.
      void reply.header('permissions-policy', 'camera=(), geolocation=(), microphone=(self)');
      if (https)
        void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      return payload;
    });
  },
  { name: 'security-headers' },
);
