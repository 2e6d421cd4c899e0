import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAGES, pageAt, SIGNED_IN_CHUNK } from '#shared/pages.ts';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';
import { Agent, createTestApp, registration, type TestApp } from '#tests/helpers/test-app.ts';
import { API_CONTENT_SECURITY_POLICY, contentSecurityPolicy } from '../plugins/security-headers.ts';
import { buildClientPages } from './client-pages.ts';

const INDEX_HTML =
  '<!doctype html><html><head><title>t</title>' +
  '<script type="module" crossorigin src="/assets/index-1.js"></script></head>' +
  '<body><div id="root"></div></body></html>';

/** A manifest shaped like Vite's: an entry, shared chunks, and one chunk per screen. */
function manifest(overrides: Record<string, object | undefined>) {
  const pages = Object.fromEntries(
    Object.values(PAGES).map((page) => [
      page.module,
      { file: `assets/${page.module.replace(/\W/g, '-')}.js`, imports: ['main.tsx'] },
    ]),
  );
  return {
    'main.tsx': { file: 'assets/index-1.js', isEntry: true, imports: ['_react.js'] },
    '_react.js': { file: 'assets/react-1.js' },
    '_forms.js': { file: 'assets/forms-1.js', imports: ['main.tsx', '_icons.js'] },
    '_icons.js': { file: 'assets/icons-1.js', css: ['assets/icons-1.css'] },
    '_zod.js': { file: 'assets/zod-1.js' },
    '_lobby-1.js': {
      file: 'assets/lobby-1.js',
      name: SIGNED_IN_CHUNK,
      imports: ['main.tsx', '_zod.js'],
    },
    ...pages,
    'app/routes/auth.tsx': {
      file: 'assets/auth-1.js',
      imports: ['main.tsx', '_forms.js', '_icons.js'],
    },
    ...overrides,
  };
}

/** A stand-in client build; `undefined` for a chunk leaves it out of the manifest. */
function writeClientBuild(overrides: Record<string, object | undefined> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'client-pages-'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest(overrides)));
  // The entry script, and a source map that should never have been left beside it.
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-1.js'), 'console.log(1);\n');
  writeFileSync(join(dir, 'assets', 'index-1.js.map'), '{"version":3,"mappings":"AAAA"}');
  return dir;
}

function links(html: string): string[] {
  return [...html.matchAll(/<link rel="(\w+)" crossorigin href="([^"]+)">/g)].map(
    ([, rel, href]) => `${rel} ${href}`,
  );
}

/** What the page says about who is signed in: undefined when it has no such block. */
function sessionUserIn(html: string): unknown {
  const block = new RegExp(
    `<script type="application/json" id="${SESSION_USER_ELEMENT_ID}">(.*?)</script>`,
  ).exec(html);
  return block ? JSON.parse(block[1] ?? '') : undefined;
}

describe('the index page of each screen', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  function build(overrides?: Record<string, object | undefined>) {
    dir = writeClientBuild(overrides);
    return buildClientPages(dir);
  }

  it('names the chunks of its screen, and what they import, but not the entry’s', () => {
    const pages = build();
    expect(links(pages.render('/auth', undefined))).toEqual([
      'stylesheet /assets/icons-1.css',
      'modulepreload /assets/auth-1.js',
      'modulepreload /assets/forms-1.js',
      'modulepreload /assets/icons-1.js',
    ]);
    expect(links(pages.render('/', undefined))).toEqual([
      'modulepreload /assets/app-routes-home-tsx.js',
    ]);
    expect(links(pages.render('/somewhere', undefined))).toEqual([
      'modulepreload /assets/app-routes-not-found-tsx.js',
    ]);
  });

  it('is the built page otherwise, with the links at the end of its head', () => {
    const page = build().render('/auth', undefined);
    expect(page.replace(/<link [^>]*>/g, '')).toBe(INDEX_HTML);
    expect(page).toMatch(/<link [^>]*><\/head>/);
  });

  it('says who is signed in, in a block no value can end', () => {
    const pages = build();
    expect(sessionUserIn(pages.render('/', null))).toBeNull();
    const page = pages.render('/', { username: '</script><script>alert(1)</script>' } as never);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(sessionUserIn(page)).toEqual({ username: '</script><script>alert(1)</script>' });
    expect(page.endsWith('</script></body></html>')).toBe(true);
  });

  it('refuses to start from a build that lacks a screen', () => {
    expect(() => build({ 'app/routes/home.tsx': undefined })).toThrow(
      'the client build has no chunk for app/routes/home.tsx',
    );
  });
});

describe('the screen of an address', () => {
  it.each([
    ['/auth', 'auth'],
    ['/reset-password', 'resetPassword'],
    ['/verify-email', 'verifyEmail'],
    ['/', 'home'],
    ['/profile', 'profile'],
    ['/challenges/12', 'challenge'],
    ['/payouts', 'payouts'],
    ['/admin', 'admin'],
    ['/sandbox/crypto/pay_1', 'cryptoCheckout'],
    ['/auth/', 'notFound'],
    ['/reset-password/abc', 'notFound'],
    ['/challenges/', 'notFound'],
    ['/nope', 'notFound'],
  ])('%s is %s', (path, page) => {
    expect(pageAt(path)).toBe(page);
  });
});

describe('pages served by the app', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = writeClientBuild();
    t = await createTestApp({ clientDir: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('name the signed-in user as GET /api/user answers, and nobody once signed out', async () => {
    const player = new Agent(t.app);
    await player.post('/api/register', registration());
    const page = await player.get('/challenges/3?tab=chat');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    // With the chunks its client checks the user with, which it loads before its first render.
    expect(links(page.body)).toEqual([
      'modulepreload /assets/app-routes-challenge-detail-tsx.js',
      'modulepreload /assets/lobby-1.js',
      'modulepreload /assets/zod-1.js',
    ]);
    expect(sessionUserIn(page.body)).toEqual((await player.get('/api/user')).json());

    await player.post('/api/logout');
    const signedOut = (await player.get('/challenges/3')).body;
    expect(sessionUserIn(signedOut)).toBeNull();
    expect(links(signedOut)).toEqual(['modulepreload /assets/app-routes-challenge-detail-tsx.js']);
  });

  it('name nobody for a visitor, or for a session cookie that is not one', async () => {
    const visitor = new Agent(t.app);
    expect(sessionUserIn((await visitor.get('/auth')).body)).toBeNull();
    visitor.useCookie('not-a-session');
    expect(sessionUserIn((await visitor.get('/')).body)).toBeNull();
  });

  it('answer the addresses of mailed links with their screens, query and all', async () => {
    const visitor = new Agent(t.app);
    const reset = await visitor.get('/reset-password?token=abc');
    expect(reset.statusCode).toBe(200);
    expect(links(reset.body)).toEqual(['modulepreload /assets/app-routes-reset-password-tsx.js']);
    expect(sessionUserIn(reset.body)).toBeNull();
    const verify = await visitor.get('/verify-email?token=abc');
    expect(links(verify.body)).toEqual(['modulepreload /assets/app-routes-verify-email-tsx.js']);
  });

  it('carry the app CSP and the page-only policies, which API answers beside them do not', async () => {
    const visitor = new Agent(t.app);
    const page = await visitor.get('/auth');
    expect(page.headers['content-security-policy']).toBe(
      contentSecurityPolicy({
        publicUrl: t.env.PUBLIC_URL,
        stripeEnabled: Boolean(t.env.STRIPE_PUBLISHABLE_KEY),
      }),
    );
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['permissions-policy']).toBe('camera=(), geolocation=(), microphone=(self)');
    const api = await visitor.get('/api/health');
    expect(api.headers['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
    expect(api.headers['permissions-policy']).toBeUndefined();
  });

  it('are compressed for a browser that takes brotli or gzip, and plain otherwise', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/auth' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    for (const [header, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const page = await t.app.inject({
        method: 'GET',
        url: '/auth',
        headers: { 'accept-encoding': header },
      });
      expect(page.headers['content-encoding']).toBe(encoding);
      expect(decode(page.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('are kept by no cache, and API misses are still JSON', async () => {
    const visitor = new Agent(t.app);
    // The first answer sets the device cookie, so no shared cache may keep it at all.
    expect((await visitor.get('/')).headers['cache-control']).toBe('private, no-store');
    expect((await visitor.get('/')).headers['cache-control']).toBe('no-store');
    const miss = await visitor.get('/api/nope');
    expect(miss.statusCode).toBe(404);
    expect(miss.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found' });
  });

  it('serve assets but never a source map, even one left in the build', async () => {
    const visitor = new Agent(t.app);
    // A hashed asset is cached for good, except by the answer that sets the device cookie: a CDN
    // that kept it would hand that one device id to every browser.
    const first = await visitor.get('/assets/index-1.js');
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.cookies.map((cookie) => cookie.name)).toEqual(['device']);
    const asset = await visitor.get('/assets/index-1.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.cookies).toEqual([]);
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1);\n');
    for (const path of ['/assets/index-1.js.map', '/assets/index-1.js.MAP', '/assets/gone-1.js']) {
      const miss = await visitor.get(path);
      expect(miss.statusCode, path).toBe(404);
      expect(miss.body, path).not.toContain('mappings');
      expect(miss.headers['content-type'], path).toContain('application/json');
    }
  });
});
