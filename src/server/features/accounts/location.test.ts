import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateChallengeBody } from '#shared/contracts/challenges.ts';
import { LOCATION_MESSAGES } from '#shared/us-states.ts';
import { queryRows } from '#server/db/client.ts';
import { users } from '#server/db/schema/users.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  registration,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { auditEntriesFor } from '../admin/testing/admin-agent.ts';

/**
 * Where cash play is allowed (docs/responsible-play.md): the state a player declares, and where the
 * city database puts the client's address, read through the proxy as every per-address rule reads
 * it. The addresses are universities' own, inside the shipped database's ranges.
 */
const TENNESSEE = '160.36.0.1'; // University of Tennessee, Knoxville
const CANADA = '128.100.0.1'; // University of Toronto
const NEW_YORK = '128.122.0.1'; // New York University
const PRIVATE = '10.20.30.40';
const PROXY = '10.0.0.2';

const IN_TENNESSEE = 'Cash competitions are not available in Tennessee.';
const IN_ARIZONA = 'Cash competitions are not available in Arizona.';
const ABROAD = 'Cash competitions are only available in the United States.';

let t: TestApp;

beforeAll(async () => {
  // One proxy in front: the client is the right-most X-Forwarded-For entry.
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

/** A request as the proxy passes it on for a client at `address`. */
const from = (address: string) => ({
  headers: { 'x-forwarded-for': address },
  remoteAddress: PROXY,
});

function register(body: object, address = PRIVATE) {
  return new Agent(t.app).request({
    method: 'POST',
    url: '/api/register',
    payload: body,
    ...from(address),
  });
}

async function usersNamed(username: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from users where username = ${username}`,
  );
  return row?.n ?? 0;
}

const challenge: CreateChallengeBody = {
  game: 'EA FC 26',
  amount: 10,
  gamerTag: 'Striker',
  phoneNumber: '5550108000',
  console: 'PlayStation',
};

/** The five ways money goes into play, each as `agent` would send it from `address`. */
async function cashPlay(agent: Agent, address: string, openChallengeId: number) {
  const post = (url: string, payload?: object) =>
    agent.request({ method: 'POST', url, ...(payload ? { payload } : {}), ...from(address) });
  return {
    create: await post('/api/challenges', challenge),
    accept: await post(`/api/challenges/${openChallengeId}/accept`),
    card: await post('/api/create-payment-intent', { amount: 20 }),
    crypto: await post('/api/create-crypto-payment', { amount: 20 }),
    notice: await post('/api/crypto-deposit-notification', { amount: 20, currency: 'btc' }),
  };
}

async function openChallenge(): Promise<number> {
  const rival = await signUp(t.app, { state: 'NY' });
  await fund(t.database, rival.user.id, 5_000n);
  const response = await rival.agent.post('/api/challenges', challenge);
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number }>().id;
}

describe('registration', () => {
  it('refuses a declared excluded state under its field, and creates nobody', async () => {
    const body = registration({ state: 'TN' });
    const response = await register(body);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'LOCATION_NOT_ALLOWED',
      message: IN_TENNESSEE,
      fields: { state: IN_TENNESSEE },
    });
    expect(await usersNamed(body.username)).toBe(0);
  });

  it('keeps the state of a permitted registration, and takes a SPEC registration without one', async () => {
    const withState = await register(registration({ state: 'NY' }));
    expect(withState.statusCode).toBe(201);
    expect(withState.json()).toMatchObject({ state: 'NY' });

    const spec = await register(registration());
    expect(spec.statusCode).toBe(201);
    expect(spec.json()).toMatchObject({ state: null });
  });

  it('refuses a state that is not one, in words', async () => {
    const response = await register({ ...registration(), state: 'XX' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { state: LOCATION_MESSAGES.stateInvalid },
    });
  });

  it('refuses an address in an excluded state, whatever the player declares', async () => {
    const body = registration({ state: 'NY' });
    const response = await register(body, TENNESSEE);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'LOCATION_NOT_ALLOWED', message: IN_TENNESSEE });
    expect(await usersNamed(body.username)).toBe(0);
  });

  it('refuses an address outside the United States', async () => {
    const response = await register(registration({ state: 'NY' }), CANADA);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'LOCATION_NOT_ALLOWED', message: ABROAD });
  });

  it('lets a New York address in and names its place in the devices list', async () => {
    const agent = new Agent(t.app);
    const response = await agent.request({
      method: 'POST',
      url: '/api/register',
      payload: registration({ state: 'NY' }),
      ...from(NEW_YORK),
    });
    expect(response.statusCode).toBe(201);
    const devices = await agent.get('/api/user/sessions');
    expect(devices.json()).toEqual([
      expect.objectContaining({
        current: true,
        address: NEW_YORK,
        place: 'New York, New York, US',
      }),
    ]);
  });

  it('falls back to the declared state for a private address: the player declared Tennessee', async () => {
    const refused = await register(registration({ state: 'TN' }), PRIVATE);
    expect(refused.statusCode).toBe(403);
    const agent = new Agent(t.app);
    const allowed = await agent.request({
      method: 'POST',
      url: '/api/register',
      payload: registration({ state: 'VT' }),
      ...from(PRIVATE),
    });
    expect(allowed.statusCode).toBe(201);
    // A private address has no place to show.
    expect((await agent.get('/api/user/sessions')).json()).toEqual([
      expect.objectContaining({ address: PRIVATE, place: null }),
    ]);
  });
});

describe('deposits, creating and accepting', () => {
  it('are refused from an excluded or foreign address, and nothing is staked or started', async () => {
    const openId = await openChallenge();
    const player = await signUp(t.app, { state: 'NY' });
    await fund(t.database, player.user.id, 10_000n);

    for (const [address, message] of [
      [TENNESSEE, IN_TENNESSEE],
      [CANADA, ABROAD],
    ] as const) {
      const answers = await cashPlay(player.agent, address, openId);
      for (const [what, answer] of Object.entries(answers)) {
        expect(answer.statusCode, what).toBe(403);
        expect(answer.json(), what).toEqual({ code: 'LOCATION_NOT_ALLOWED', message });
      }
    }
    expect(await balanceOf(t.database, player.user.id)).toBe(10_000n);
    const [payments] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from payments where user_id = ${player.user.id}`,
    );
    expect(payments?.n).toBe(0);

    // From New York everything goes through.
    const allowed = await cashPlay(player.agent, NEW_YORK, openId);
    expect(allowed.create.statusCode).toBe(201);
    expect(allowed.accept.statusCode).toBe(200);
    expect(allowed.card.statusCode).toBe(200);
    expect(allowed.crypto.statusCode).toBe(200);
    expect(allowed.notice.statusCode).toBe(201);
  });

  it('never stand between a player and a payout, wherever the address is', async () => {
    const player = await signUp(t.app, { state: 'NY' });
    await fund(t.database, player.user.id, 10_000n);
    for (const address of [TENNESSEE, CANADA]) {
      const payout = await player.agent.request({
        method: 'POST',
        url: '/api/payouts',
        payload: {
          amount: 10,
          paymentMethod: 'crypto',
          paymentDetails: 'BTC bc1qtravellingplayer0000000000000000',
          phoneNumber: '+1 555 010 3000',
        },
        ...from(address),
      });
      expect(payout.statusCode, address).toBe(201);
    }
    expect(await balanceOf(t.database, player.user.id)).toBe(8_000n);
  });

  it('are refused once the player moves into an excluded state; payouts never are', async () => {
    const openId = await openChallenge();
    const player = await signUp(t.app, { state: 'NY' });
    await fund(t.database, player.user.id, 10_000n);

    const moved = await player.agent.request({
      method: 'PATCH',
      url: '/api/user',
      payload: { state: 'AZ' },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ state: 'AZ' });

    const answers = await cashPlay(player.agent, PRIVATE, openId);
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.statusCode, what).toBe(403);
      expect(answer.json(), what).toEqual({ code: 'LOCATION_NOT_ALLOWED', message: IN_ARIZONA });
    }
    const payout = await player.agent.post('/api/payouts', {
      amount: 30,
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qmovedplayer000000000000000000000',
      phoneNumber: '+1 555 010 3000',
    });
    expect(payout.statusCode).toBe(201);
    expect(await balanceOf(t.database, player.user.id)).toBe(7_000n);

    // Back in a permitted state, play resumes.
    await player.agent.request({ method: 'PATCH', url: '/api/user', payload: { state: 'NJ' } });
    expect((await player.agent.post('/api/challenges', challenge)).statusCode).toBe(201);
  });

  it('read the declared state afresh: a change on another instance counts at once', async () => {
    const player = await signUp(t.app, { state: 'NY' });
    await fund(t.database, player.user.id, 10_000n);
    // Warm this instance's session cache, then move the player behind its back.
    expect((await player.agent.get('/api/user')).statusCode).toBe(200);
    await t.database.db.update(users).set({ state: 'TN' }).where(eq(users.id, player.user.id));
    const refused = await player.agent.post('/api/challenges', challenge);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: IN_TENNESSEE });
  });
});

describe('PATCH /api/user {state}', () => {
  it('records each change in the audit log with what it replaced, and a repeat not at all', async () => {
    const player = await signUp(t.app, { state: 'NY' });
    const patch = (state: string) =>
      player.agent.request({ method: 'PATCH', url: '/api/user', payload: { state } });
    expect((await patch('CA')).statusCode).toBe(200);
    expect((await patch('CA')).statusCode).toBe(200);
    const entries = await auditEntriesFor(
      t.database,
      { type: 'user', id: player.user.id },
      'user.state_change',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorUserId: player.user.id,
      details: { from: 'NY', to: 'CA' },
    });
    expect((await player.agent.get('/api/user')).json()).toMatchObject({ state: 'CA' });
  });

  it('refuses a missing or unknown state, and a stranger', async () => {
    const player = await signUp(t.app);
    const missing = await player.agent.request({ method: 'PATCH', url: '/api/user', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ fields: { state: LOCATION_MESSAGES.stateRequired } });
    const unknown = await player.agent.request({
      method: 'PATCH',
      url: '/api/user',
      payload: { state: 'Tennessee' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ fields: { state: LOCATION_MESSAGES.stateInvalid } });
    const anonymous = await new Agent(t.app).request({
      method: 'PATCH',
      url: '/api/user',
      payload: { state: 'NY' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GEO_CHECK=false', () => {
  it('leaves the address out: the declared state decides alone', async () => {
    const local = await createTestApp({
      database: t.database,
      env: { TRUST_PROXY: 'true', GEO_CHECK: 'false' },
    });
    try {
      const response = await new Agent(local.app).request({
        method: 'POST',
        url: '/api/register',
        payload: registration({ state: 'NY' }),
        ...from(TENNESSEE),
      });
      expect(response.statusCode).toBe(201);
    } finally {
      await local.close();
    }
  });
});

describe('EXCLUDED_STATES', () => {
  it('replaces the list: Tennessee allowed, New York refused', async () => {
    const local = await createTestApp({
      database: t.database,
      env: { TRUST_PROXY: 'true', EXCLUDED_STATES: 'NY' },
    });
    try {
      const register = (address: string) =>
        new Agent(local.app).request({
          method: 'POST',
          url: '/api/register',
          payload: registration({ state: 'TN' }),
          ...from(address),
        });
      expect((await register(PRIVATE)).statusCode).toBe(201);
      const refused = await register(NEW_YORK);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        message: 'Cash competitions are not available in New York.',
      });
    } finally {
      await local.close();
    }
  });
});
