import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#server/db/schema/users.ts';
import {
  Agent,
  createTestApp,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { ensureAdmin, promoteUser } from './admin-bootstrap.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('first admin', () => {
  it('creates the admin once; running again changes nothing and keeps a changed password', async () => {
    const username = uniqueUsername('boss');
    expect(await ensureAdmin(t.database.db, t.bus, username, 'first-password')).toBe('created');
    expect(await ensureAdmin(t.database.db, t.bus, username, 'another-password')).toBe('unchanged');
    const rows = await t.database.db.select().from(users).where(eq(users.username, username));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.isAdmin).toBe(true);

    const agent = new Agent(t.app);
    expect(
      (await agent.post('/api/login', { username, password: 'first-password' })).json().isAdmin,
    ).toBe(true);
    expect(
      (await new Agent(t.app).post('/api/login', { username, password: 'another-password' }))
        .statusCode,
    ).toBe(401);
  });

  it('promotes an existing player, whatever the case of the name', async () => {
    const { user, agent } = await signUp(t.app);
    expect((await agent.get('/api/admin/users')).statusCode).toBe(403);
    expect(await ensureAdmin(t.database.db, t.bus, user.username.toUpperCase(), 'ignored')).toBe(
      'promoted',
    );
    expect((await agent.get('/api/admin/users')).statusCode).toBe(200);
  });

  it('promoteUser promotes by name and reports an unknown one', async () => {
    const { user, agent } = await signUp(t.app);
    expect(await promoteUser(t.database.db, t.bus, user.username)).toBe(true);
    expect((await agent.get('/api/user')).json().isAdmin).toBe(true);
    expect(await promoteUser(t.database.db, t.bus, 'nobody_by_that_name')).toBe(false);
  });
});
