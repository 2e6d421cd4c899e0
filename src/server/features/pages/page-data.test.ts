import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAGE_DATA_ELEMENT_ID } from '#shared/page-data.ts';
import { PAGES, SIGNED_IN_CHUNK } from '#shared/pages.ts';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';
import { Agent, createTestApp, signUp, type TestApp } from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { buildClientPages } from '../../lib/client-pages.ts';
import type * as view from '../tournaments/view.ts';

// The tournament list as the route and the page read it; a test makes it fail or hang.
const listTournaments = vi.hoisted(() => ({
  override: undefined as (() => Promise<never>) | undefined,
}));
vi.mock('../tournaments/view.ts', async (importOriginal) => {
  const original = await importOriginal<typeof view>();
  return {
    ...original,
    listTournaments: (...args: Parameters<typeof original.listTournaments>) =>
      listTournaments.override ? listTournaments.override() : original.listTournaments(...args),
  };
});

const INDEX_HTML =
  '<!doctype html><html><head><title>t</title>' +
  '<script type="module" crossorigin src="/assets/index-1.js"></script></head>' +
  '<body><div id="root"></div></body></html>';

/** A stand-in client build: an entry and one chunk per screen. */
function writeClientBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'page-data-'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  const manifest = Object.fromEntries(
    Object.values(PAGES).map((page) => [
      page.module,
      { file: `assets/${page.module.replace(/\W/g, '-')}.js`, imports: ['main.tsx'] },
    ]),
  );
  manifest['main.tsx'] = { file: 'assets/index-1.js', isEntry: true } as never;
  manifest['_lobby-1.js'] = { file: 'assets/lobby-1.js', name: SIGNED_IN_CHUNK } as never;
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** The JSON block `id` of a page, parsed; undefined when the page has none. */
function block(html: string, id: string): unknown {
  const found = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(html);
  return found ? JSON.parse(found[1] ?? '') : undefined;
}

const pageDataOf = (html: string) => block(html, PAGE_DATA_ELEMENT_ID);

describe('the data a page carries', () => {
  let t: TestApp;
  let dir: string;
  let admin: Agent;
  beforeAll(async () => {
    dir = writeClientBuild();
    t = await createTestApp({ clientDir: dir });
    ({ agent: admin } = await signInAdmin(t));
    const created = await admin.post('/api/admin/tournaments', {
      game: 'Tekken <8>',
      console: 'PlayStation',
      entryFee: 3,
      size: 8,
      startsAt: new Date(Date.now() + 60 * 60_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    listTournaments.override = undefined;
  });

  it('is, on a player page, the player as GET /api/players/:username answers the viewer', async () => {
    const { agent, user } = await signUp(t.app);
    const page = await agent.get(`/players/${user.username.toUpperCase()}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    const api = await agent.get(`/api/players/${user.username.toUpperCase()}`);
    expect(api.statusCode).toBe(200);
    expect(pageDataOf(page.body)).toEqual([
      { query: 'player', key: ['players', user.username.toLowerCase()], data: api.json() },
    ]);
    // The user block is still there beside it.
    expect(block(page.body, SESSION_USER_ELEMENT_ID)).toEqual(
      (await agent.get('/api/user')).json(),
    );
  });

  it('is, on the leaderboard, the board of the address as GET /api/leaderboard answers it', async () => {
    const { agent } = await signUp(t.app);
    for (const [search, query, key] of [
      ['', 'period=week', ['leaderboard', 'week', '']],
      [
        '?period=month&game=%20Tekken%208%20',
        'period=month&game=Tekken%208',
        ['leaderboard', 'month', 'tekken 8'],
      ],
      // The client cuts a game to its longest, as the server does.
      [
        `?game=${'X'.repeat(81)}`,
        `period=week&game=${'X'.repeat(80)}`,
        ['leaderboard', 'week', 'x'.repeat(80)],
      ],
      // The client reads an unknown period as this week, as the server does.
      ['?period=decade', 'period=week', ['leaderboard', 'week', '']],
      // wouter decodes the query string once before the client reads it, and so does the server.
      ['?game=a%2520b', 'period=week&game=a%20b', ['leaderboard', 'week', 'a b']],
    ] as const) {
      const page = await agent.get(`/leaderboard${search}`);
      const api = await agent.get(`/api/leaderboard?${query}`);
      expect(api.statusCode).toBe(200);
      expect(pageDataOf(page.body), search).toEqual([
        { query: 'leaderboard', key, data: api.json() },
      ]);
    }
  });

  it('is, on /tournaments, the list as GET /api/tournaments answers the viewer, < escaped', async () => {
    const { agent } = await signUp(t.app);
    const page = await agent.get('/tournaments');
    const api = (await agent.get('/api/tournaments')).json<Array<{ game: string }>>();
    expect(api.map((row) => row.game)).toContain('Tekken <8>');
    expect(pageDataOf(page.body)).toEqual([
      { query: 'tournaments', key: ['tournaments', 'list'], data: api },
    ]);
    expect(page.body).toContain('Tekken \\u003c8>');
    expect(page.body).not.toContain('Tekken <8>');
  });

  it('is nothing for a visitor signed out, whom the API answers 401', async () => {
    const visitor = new Agent(t.app);
    const { user } = await signUp(t.app);
    for (const path of [`/players/${user.username}`, '/leaderboard', '/tournaments']) {
      expect((await visitor.get(`/api${path}`)).statusCode).toBe(401);
      const page = await visitor.get(path);
      expect(page.statusCode, path).toBe(200);
      expect(pageDataOf(page.body), path).toBeUndefined();
      expect(block(page.body, SESSION_USER_ELEMENT_ID), path).toBeNull();
    }
  });

  it('is nothing where the API answers an error: the client asks and meets it as before', async () => {
    const { agent } = await signUp(t.app);
    const closed = await signUp(t.app);
    const deleted = await admin.request({
      method: 'DELETE',
      url: `/api/admin/users/${closed.user.id}`,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    for (const [path, api, status] of [
      ['/players/nobody_here_at_all', '/api/players/nobody_here_at_all', 404],
      [`/players/${closed.user.username}`, `/api/players/${closed.user.username}`, 404],
      [`/players/${'x'.repeat(65)}`, `/api/players/${'x'.repeat(65)}`, 400],
      // A control character the client reads once wouter has decoded the query string: the API
      // refuses it before its route runs, so it is not looked up.
      ['/leaderboard?game=a%2501b', '/api/leaderboard?game=a%01b', 400],
    ] as const) {
      expect((await agent.get(api)).statusCode, api).toBe(status);
      const page = await agent.get(path);
      // The page itself is sent as before: the not-found page is the client's to draw.
      expect(page.statusCode, path).toBe(200);
      expect(pageDataOf(page.body), path).toBeUndefined();
    }
  });

  it('is left out when its load fails, and the page is sent all the same', async () => {
    const { agent } = await signUp(t.app);
    listTournaments.override = () => Promise.reject(new Error('the database is down'));
    const page = await agent.get('/tournaments');
    expect(page.statusCode).toBe(200);
    expect(pageDataOf(page.body)).toBeUndefined();
    expect(block(page.body, SESSION_USER_ELEMENT_ID)).toMatchObject({
      username: expect.any(String),
    });
  });

  it('is left out when its load is slow: the page does not wait for it', async () => {
    const { agent } = await signUp(t.app);
    // A page that waited for it would never come, and the test would time out.
    listTournaments.override = () => new Promise<never>(() => {});
    const page = await agent.get('/tournaments');
    expect(page.statusCode).toBe(200);
    expect(pageDataOf(page.body)).toBeUndefined();
  });

  it('is not loaded for a HEAD request, whose body is never sent', async () => {
    const { agent } = await signUp(t.app);
    let loads = 0;
    listTournaments.override = () => {
      loads += 1;
      return Promise.reject(new Error('loaded'));
    };
    const head = await agent.request({ method: 'HEAD', url: '/tournaments' });
    expect(head.statusCode).toBe(200);
    expect(loads).toBe(0);
    await agent.get('/tournaments');
    expect(loads).toBe(1);
  });

  it('is nothing on pages whose screens carry none', async () => {
    const { agent } = await signUp(t.app);
    for (const path of ['/', '/profile', '/auth', '/players/', '/nope']) {
      expect(pageDataOf((await agent.get(path)).body), path).toBeUndefined();
    }
  });
});

describe('the data block of a page', () => {
  it('is JSON that no value can end', () => {
    const dir = writeClientBuild();
    try {
      const page = buildClientPages(dir).render('/tournaments', null, [
        {
          query: 'tournaments',
          key: ['tournaments', 'list'],
          data: [{ game: '</script><script>alert(1)</script>' }],
        },
      ]);
      expect(page.match(/<\/script>/g)).toHaveLength(3);
      expect(pageDataOf(page)).toEqual([
        {
          query: 'tournaments',
          key: ['tournaments', 'list'],
          data: [{ game: '</script><script>alert(1)</script>' }],
        },
      ]);
      expect(page.endsWith('</script></body></html>')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
