import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connectVoice } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RouteEntry } from '#server/app.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { users } from '#server/db/schema/users.ts';
import { createSession } from '#server/features/accounts/sessions.ts';
import { newTotpSecret } from '#server/features/accounts/two-factor.ts';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { openTestDatabase } from '#tests/helpers/database.ts';
import { expectLedgerHealthy, type TestApp } from '#tests/helpers/test-app.ts';
import { ROUTE_CASES, VOICE_EXPECTED, type RouteCase } from './testing/route-cases.ts';
import {
  createAdminActor,
  createSettledTestApp,
  createDeletedActor,
  ROLES,
  send,
  World,
  type Actor,
  type Role,
} from './testing/world.ts';

/**
 * The permission matrix (issue 9): every route the server registers × every role → the status
 * that role must get. The table (`testing/route-cases.ts`) is the specification; the route
 * table of the running server is the subject. A route missing from the table, or a table entry for a route that no
 * longer exists, fails the test, so a new route cannot ship without its permissions written down.
 *
 * Every unsafe request runs in a fresh world (new players, new resources), so one role's
 * success cannot change what the next role sees; reads share one world.
 */

const routeKey = (route: Pick<RouteEntry, 'method' | 'url'>) => `${route.method} ${route.url}`;

let database: DatabaseHandle;
let sandboxApp: TestApp;
let providersApp: TestApp;
let baseUrl: string;
let admin: Actor;
let deleted: Actor;

const PROVIDER_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_matrix',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_matrix',
  STRIPE_WEBHOOK_SECRET: 'whsec_matrix',
  NOWPAYMENTS_API_KEY: 'matrix-key',
  NOWPAYMENTS_IPN_SECRET: 'matrix-ipn-secret',
  NOWPAYMENTS_EMAIL: 'treasury@example.test',
  NOWPAYMENTS_PASSWORD: 'matrix-password',
  NOWPAYMENTS_2FA_SECRET: 'JBSWY3DPEHPK3PXP',
};

beforeAll(async () => {
  database = await openTestDatabase();
  sandboxApp = await createSettledTestApp({ database });
  // Webhook routes exist only when real providers are configured (and sandbox routes only when
  // they are not), so the matrix covers the union of both configurations' route tables.
  providersApp = await createSettledTestApp({ database, env: PROVIDER_ENV });
  await sandboxApp.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `127.0.0.1:${(sandboxApp.app.server.address() as AddressInfo).port}`;
  admin = await createAdminActor(sandboxApp);
  deleted = await createDeletedActor(sandboxApp, admin);
});
afterAll(async () => {
  await providersApp?.close();
  await sandboxApp?.close();
  await database?.close();
});

function socketStatus(actor: Actor | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://${baseUrl}/ws`, {
      headers: actor ? { cookie: `sid=${actor.token}` } : {},
    });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', reject);
  });
}

function voiceOutcome(actor: Actor | undefined, world: World, challengeId: number) {
  return new Promise<'connected' | 'refused'>((resolve) => {
    const socket = connectVoice(`http://${baseUrl}`, {
      path: '/socket.io',
      transports: ['websocket'],
      query: {
        challengeId: String(challengeId),
        userId: String(actor?.id ?? world.actor('player').id),
      },
      extraHeaders: actor ? { cookie: `sid=${actor.token}` } : {},
      reconnection: false,
      forceNew: true,
    });
    socket.once('connect', () => {
      socket.disconnect();
      resolve('connected');
    });
    socket.once('connect_error', () => {
      socket.disconnect();
      resolve('refused');
    });
  });
}

async function statusOf(
  route: RouteEntry,
  testCase: RouteCase,
  world: World,
  role: Role,
): Promise<number> {
  if (route.websocket) return socketStatus(world.actors[role]);
  const options = await testCase.request(world);
  return (await world.send(role, options)).statusCode;
}

describe('the permission matrix', () => {
  it('has an entry for every route of every configuration, and none for a route that is gone', () => {
    const sandboxRoutes = sandboxApp.app.routeTable.map(routeKey);
    const providerRoutes = providersApp.app.routeTable.map(routeKey);
    const all = new Set([...sandboxRoutes, ...providerRoutes]);
    expect([...all].filter((key) => !(key in ROUTE_CASES))).toEqual([]);
    expect(Object.keys(ROUTE_CASES).filter((key) => !all.has(key))).toEqual([]);
    // Sanity: the table is the real one, with both kinds of payment routes in it.
    expect(sandboxRoutes).toContain('POST /api/sandbox/card/confirm');
    expect(providerRoutes).toContain('POST /api/webhooks/stripe');
    expect(all.size).toBeGreaterThan(45);
  });

  it('every route answers every role exactly as the table says', async () => {
    const mismatches: string[] = [];
    let cells = 0;
    const sharedWorld = await World.create(sandboxApp, { deleted });
    const tested = new Set<string>();
    for (const t of [sandboxApp, providersApp]) {
      for (const route of t.app.routeTable) {
        const key = routeKey(route);
        if (tested.has(key)) continue;
        tested.add(key);
        const safe = route.method === 'GET';
        for (const testCase of ROUTE_CASES[key] ?? []) {
          for (const role of ROLES) {
            const world = safe ? sharedWorld : await World.create(t, { deleted });
            const status = await statusOf(route, testCase, world, role);
            cells += 1;
            if (status !== testCase.expect[role]) {
              const target = testCase.target ? ` (${testCase.target})` : '';
              mismatches.push(
                `${key}${target} as ${role}: expected ${testCase.expect[role]}, got ${status}`,
              );
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(cells).toBeGreaterThan(300);
    await expectLedgerHealthy(database);
    // Every cell of an unsafe route builds a fresh world: hundreds of requests, seconds of work.
  }, 180_000);

  it('the voice socket admits the two players of an accepted challenge and nobody else', async () => {
    const world = await World.create(sandboxApp, { deleted });
    const challengeId = await world.acceptedChallenge();
    const outcomes: Partial<Record<Role, string>> = {};
    for (const role of ROLES) {
      outcomes[role] = await voiceOutcome(world.actors[role], world, challengeId);
    }
    expect(outcomes).toEqual(VOICE_EXPECTED);
  });

  it('a deleted account stays shut out even if a session row of it survived', async () => {
    // Deletion removes the sessions; the lookup also refuses deleted accounts, in case a login
    // raced the deletion. Plant a fresh session row for the deleted user to prove the second lock.
    const { token } = await createSession(
      database.db,
      deleted.id,
      { idleMs: 3_600_000, maxAgeMs: 86_400_000 },
      new Date(),
    );
    const response = await sandboxApp.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { cookie: `sid=${token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('under ADMIN_2FA_REQUIRED, an admin without two-factor is refused every admin route and sees what a player sees', async () => {
    const strictApp = await createSettledTestApp({
      database,
      env: { ADMIN_2FA_REQUIRED: 'true' },
    });
    try {
      const withoutTwoFactor = await createAdminActor(strictApp);
      const withTwoFactor = await createAdminActor(strictApp);
      await database.db
        .update(users)
        .set({ totpSecret: newTotpSecret() })
        .where(eq(users.id, withTwoFactor.id));
      await strictApp.bus.publish({ type: 'user-changed', userId: withTwoFactor.id });

      const mismatches: string[] = [];
      const refusedAdminRoutes = new Set<string>();
      const sharedWorld = await World.create(strictApp, { admin: withTwoFactor, deleted });
      for (const route of strictApp.app.routeTable) {
        if (route.websocket) continue;
        const key = routeKey(route);
        for (const testCase of ROUTE_CASES[key] ?? []) {
          // Off the admin routes, admin powers are reads whose answer to an admin differs from
          // an outsider's (e-mails, licences, evidence): there the admin without two-factor must
          // get the outsider's.
          const adminOnly = route.access === 'admin';
          const adminRead =
            route.method === 'GET' && testCase.expect.admin !== testCase.expect.outsider;
          if (!adminOnly && !adminRead) continue;
          const world =
            route.method === 'GET'
              ? sharedWorld
              : await World.create(strictApp, { admin: withTwoFactor, deleted });
          const target = `${key}${testCase.target ? ` (${testCase.target})` : ''}`;
          // The refusal goes first: it changes nothing the admin with two-factor then meets.
          const refused = await send(strictApp, withoutTwoFactor, await testCase.request(world));
          const expected = adminOnly ? 403 : testCase.expect.outsider;
          if (refused.statusCode !== expected) {
            mismatches.push(
              `${target} without two-factor: expected ${expected}, got ${refused.statusCode}`,
            );
          } else if (adminOnly) {
            refusedAdminRoutes.add(key);
            expect(refused.json()).toEqual({
              code: 'TWO_FACTOR_SETUP_REQUIRED',
              message: SECURITY_MESSAGES.adminNeedsTwoFactor,
            });
          }
          const admitted = await world.send('admin', await testCase.request(world));
          if (admitted.statusCode !== testCase.expect.admin) {
            mismatches.push(
              `${target} with two-factor: expected ${testCase.expect.admin}, got ${admitted.statusCode}`,
            );
          }
        }
      }
      expect(mismatches).toEqual([]);
      const adminRouteKeys = strictApp.app.routeTable
        .filter((route) => route.access === 'admin')
        .map(routeKey);
      expect([...refusedAdminRoutes].sort()).toEqual([...new Set(adminRouteKeys)].sort());
    } finally {
      await strictApp.close();
    }
  });
});
