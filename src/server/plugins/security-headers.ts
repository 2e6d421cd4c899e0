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
 * What an API answer needs, and no more: it is data, never a page, so its policy lets nothing run
 * or frame it (OWASP's REST guidance). The page-only headers (the app's CSP, COOP, the referrer
 * and permissions policies) would be bytes on every request that no browser reads on JSON.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Browser-facing hardening on every response (docs/accounts.md, issue 9): no MIME sniffing, no
 * framing by other sites, no reading by other origins' pages, and HSTS once the site is served over
 * https. Pages and their assets also carry `contentSecurityPolicy`, a referrer that never carries
 * our paths elsewhere, their own browsing context group and the permissions they may ask for;
 * everything outside /api/ is treated so, as the not-found handler serves pages for any path
 * outside it. API answers are kept by no cache and carry `API_CONTENT_SECURITY_POLICY`. A route
 * that set its own policy (an uploaded file is served with `default-src 'none'; sandbox`) keeps it.
 */
export const securityHeaders = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const hsts: Record<string, string> = options.publicUrl?.startsWith('https:')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {};
    const common = {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cross-origin-resource-policy': 'same-origin',
      ...hsts,
    };
    const page = {
      ...common,
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
      // The microphone is for voice chat on our own pages; nothing else is ever asked for.
      'permissions-policy': 'camera=(), geolocation=(), microphone=(self)',
    };
    const pagePolicy = contentSecurityPolicy(options);
    // A callback hook, not an async one: it runs on every response and has nothing to wait for.
    app.addHook('onSend', (request, reply, payload, done) => {
      const isApi = request.url.startsWith('/api/');
      if (!reply.hasHeader('content-security-policy'))
        void reply.header(
          'content-security-policy',
          isApi ? API_CONTENT_SECURITY_POLICY : pagePolicy,
        );
      // API answers are one person's data: no shared cache may keep them, and the browser asks
      // again rather than reuse one (a route that means otherwise says so itself).
      if (isApi && !reply.hasHeader('cache-control'))
        void reply.header('cache-control', 'no-store');
      void reply.headers(isApi ? common : page);
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
