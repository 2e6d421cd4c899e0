import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '#server/db/schema/sessions.ts';
import type { User } from '#server/db/schema/users.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { withTwoInstances } from '#tests/helpers/two-instances.ts';
import { Agent, createTestApp, signUp, type TestApp } from '#tests/helpers/test-app.ts';
import { SESSION_CACHE_TTL_MS, SessionCache } from './session-cache.ts';
import { hashToken } from './sessions.ts';

const user = (id: number) => ({ id, username: `player_${id}` }) as User;
const session = (id: number) => ({ user: user(id), lastSeenAt: 0, expiresAt: 1e15 });

describe('SessionCache', () => {
  it('keeps a session for its time to live, then reads it again', () => {
    const cache = new SessionCache(1000);
    cache.store('a', session(1), cache.mark(), 5_000);
    expect(cache.get('a', 5_999)?.user.id).toBe(1);
    expect(cache.get('a', 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not store a read that started before a session was forgotten', () => {
    const cache = new SessionCache();
    const mark = cache.mark();
    // The logout commits and its event arrives while the lookup is still on its way back.
    cache.forgetToken('a');
    cache.store('a', session(1), mark, 0);
    expect(cache.get('a', 0)).toBeUndefined();
    cache.store('a', session(1), cache.mark(), 0);
    expect(cache.get('a', 0)).toBeDefined();
  });

  it('forgets on the events that end sessions or change their user', () => {
    const cache = new SessionCache();
    const fill = () => {
      cache.store('a', session(1), cache.mark(), 0);
      cache.store('b', session(1), cache.mark(), 0);
      cache.store('c', session(2), cache.mark(), 0);
    };
    const kept = () => ['a', 'b', 'c'].filter((token) => cache.get(token, 0) !== undefined);
    fill();
    cache.handle({ type: 'session-revoked', tokenHash: 'a' });
    expect(kept()).toEqual(['b', 'c']);
    fill();
    cache.handle({ type: 'sessions-revoked', userId: 1 });
    expect(kept()).toEqual(['c']);
    fill();
    cache.handle({ type: 'user-changed', userId: 2 });
    expect(kept()).toEqual(['a', 'b']);
    fill();
    cache.handle({
      type: 'balance',
      userId: 1,
      balanceCents: '5',
      availableCents: '5',
      underReviewCents: '0',
    });
    expect(cache.size).toBe(3);
    cache.handle({ type: 'events-missed' });
    expect(cache.size).toBe(0);
  });

  it('drops the oldest session when full', () => {
    const cache = new SessionCache(60_000, 2);
    for (const token of ['a', 'b', 'c']) cache.store(token, session(1), cache.mark(), 0);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 0)).toBeDefined();
    expect(cache.get('c', 0)).toBeDefined();
  });
});

describe('signed-in requests answered from the session cache', () => {
  let t: TestApp;
  let now = new Date('2031-03-01T12:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
  });
  afterAll(async () => {
    await t.close();
  });

  it('trusts a session it checked for a few seconds, and no longer', async () => {
    const { agent } = await signUp(t.app);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    // Removed behind the application's back (no event): only the time to live ends the copy.
    await t.database.db
      .delete(sessions)
      .where(eq(sessions.tokenHash, hashToken(agent.sessionCookie ?? '')));
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    now = new Date(now.getTime() + SESSION_CACHE_TTL_MS);
    expect((await agent.get('/api/user')).statusCode).toBe(401);
  });

  it('refuses a session at once after logout, and a replaced one after a new login', async () => {
    const { agent, user: player, password } = await signUp(t.app);
    expect((await agent.get('/api/user')).statusCode).toBe(200);
    const first = agent.sessionCookie;
    const login = await agent.post('/api/login', { username: player.username, password });
    expect(login.statusCode).toBe(200);
    const stale = new Agent(t.app);
    stale.useCookie(first);
    expect((await stale.get('/api/user')).statusCode).toBe(401);

    expect((await agent.get('/api/user')).statusCode).toBe(200);
    const second = agent.sessionCookie;
    expect((await agent.post('/api/logout')).statusCode).toBe(204);
    const replay = new Agent(t.app);
    replay.useCookie(second);
    expect((await replay.get('/api/user')).statusCode).toBe(401);
  });

  it('shows a changed e-mail address at once', async () => {
    const { agent } = await signUp(t.app, { email: 'before@example.com' });
    expect((await agent.get('/api/user')).json()).toMatchObject({ email: 'before@example.com' });
    const update = await agent.post('/api/user/update-email', { email: 'after@example.com' });
    expect(update.statusCode).toBe(200);
    expect((await agent.get('/api/user')).json()).toMatchObject({ email: 'after@example.com' });
  });
});

describe.runIf(onPostgres)('sessions across instances on one PostgreSQL', () => {
  it('a logout or an e-mail change on instance A reaches instance B', async () => {
    await withTwoInstances(async (a, b) => {
      const { agent } = await signUp(a.app, { email: 'first@example.com' });
      const onB = new Agent(b.app);
      onB.useCookie(agent.sessionCookie);
      expect((await onB.get('/api/user')).json()).toMatchObject({ email: 'first@example.com' });

      await agent.post('/api/user/update-email', { email: 'second@example.com' });
      await expect
        .poll(async () => (await onB.get('/api/user')).json<{ email: string }>().email)
        .toBe('second@example.com');

      expect((await agent.post('/api/logout')).statusCode).toBe(204);
      await expect.poll(async () => (await onB.get('/api/user')).statusCode).toBe(401);
    });
  });
});
