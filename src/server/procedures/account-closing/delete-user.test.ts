import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { queryRows } from '#server/db/client.ts';
import { ledgerAccounts } from '#server/db/schema/ledger.ts';
import { users } from '#server/db/schema/users.ts';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import type { CreateChallengeBody } from '#shared/contracts/challenges.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import { multipart, sampleFile } from '#tests/helpers/multipart.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { challengeEscrow, HOUSE_UNCLAIMED, userWallet } from '../../features/ledger/accounts.ts';
import { SESSION_ENDED_CLOSE_CODE } from '#shared/contracts/realtime.ts';
import { CLOSED_PLAYER_DISPUTE, deletedUsername } from './close-account.ts';
import { DELETED_ACCOUNT_NOTE } from './delete-user.ts';
import { auditEntriesFor, signInAdmin } from '../../features/admin/testing/admin-agent.ts';

let t: TestApp;
let socketUrl: string;
let admin: Agent;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
  ({ agent: admin, id: adminId } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const challenge = (amount: number): CreateChallengeBody => ({
  game: 'Chess',
  amount,
  gamerTag: 'Pawn',
  phoneNumber: '5550107000',
  console: 'PC',
});

async function accountBalance(key: string): Promise<bigint> {
  const [row] = await t.database.db
    .select({ balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.key, key));
  return row?.balanceCents ?? 0n;
}

async function postingCount(account: string): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    t.database.db,
    sql`select count(*)::int as count from ledger_postings p
        join ledger_accounts a on a.id = p.account_id where a.key = ${account}`,
  );
  return row?.count ?? 0;
}

/** Opens the account socket and resolves with its close code whenever it closes. */
async function openSocket(agent: Agent): Promise<{ closed: Promise<number> }> {
  const socket = new WebSocket(socketUrl, { headers: { cookie: `sid=${agent.sessionCookie}` } });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { closed };
}

describe('DELETE /api/admin/users/:id', () => {
  it('ends sessions and sockets, settles challenges and payouts, sweeps the balance and erases the person', async () => {
    const victim = await signUp(t.app, { email: 'victim@example.com', state: 'OH' });
    const opponent = await signUp(t.app);
    const victimId = victim.user.id;
    const oldName = victim.user.username;
    await fund(t.database, victimId, 10_000n);
    await fund(t.database, opponent.user.id, 10_000n);

    const open = (await victim.agent.post('/api/challenges', challenge(10))).json().id as number;
    const created = (await victim.agent.post('/api/challenges', challenge(20))).json().id as number;
    await opponent.agent.post(`/api/challenges/${created}/accept`);
    const joined = (await opponent.agent.post('/api/challenges', challenge(5))).json().id as number;
    await victim.agent.post(`/api/challenges/${joined}/accept`);
    const payout = await victim.agent.post('/api/payouts', {
      amount: 7,
      paymentMethod: 'crypto',
      paymentDetails: 'BTC bc1qvictim',
      phoneNumber: '5550107000',
    });
    const payoutId = payout.json().payout.id as number;
    const license = multipart('driversLicense', 'id.pdf', 'application/pdf', sampleFile('pdf'));
    await victim.agent.request({
      method: 'POST',
      url: '/api/user/upload-license',
      payload: license.payload,
      headers: license.headers,
    });
    // $100 − $10 − $20 − $5 staked − $7 held.
    expect(await balanceOf(t.database, victimId)).toBe(5_800n);
    const unclaimedBefore = await accountBalance(HOUSE_UNCLAIMED);
    const walletPostingsBefore = await postingCount(userWallet(victimId));
    const socket = await openSocket(victim.agent);

    const response = await admin.request({
      method: 'DELETE',
      url: `/api/admin/users/${victimId}`,
      payload: { reason: 'Requested by the player' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      message: ADMIN_MESSAGES.userDeleted,
      userId: victimId,
      cancelledChallengeIds: [open],
      disputedChallengeIds: [created, joined],
      failedPayoutIds: [payoutId],
      unclaimed: 75,
    });

    // Sessions and sockets end at once.
    expect(await socket.closed).toBe(SESSION_ENDED_CLOSE_CODE);
    expect((await victim.agent.get('/api/user')).statusCode).toBe(401);
    const login = await new Agent(t.app).post('/api/login', {
      username: oldName,
      password: victim.password,
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe('INVALID_CREDENTIALS');

    // The open challenge is cancelled and refunded; the accepted ones wait for an admin.
    const view = async (id: number) => (await opponent.agent.get(`/api/challenges/${id}`)).json();
    expect(await view(open)).toMatchObject({ status: 'cancelled' });
    expect(await accountBalance(challengeEscrow(open))).toBe(0n);
    for (const id of [created, joined]) {
      expect(await view(id)).toMatchObject({
        status: 'disputed',
        disputeReason: CLOSED_PLAYER_DISPUTE,
      });
    }
    expect(await accountBalance(challengeEscrow(created))).toBe(4_000n);
    expect(await accountBalance(challengeEscrow(joined))).toBe(1_000n);
    const disputes = (await admin.get('/api/admin/disputes')).json<
      Array<{ id: number; stakesInEscrow: boolean }>
    >();
    expect(disputes.filter((d) => d.id === created || d.id === joined)).toEqual([
      expect.objectContaining({ id: joined, stakesInEscrow: true }),
      expect.objectContaining({ id: created, stakesInEscrow: true }),
    ]);

    // The pending payout failed back into the wallet before the sweep.
    const payouts = (await admin.get('/api/admin/payouts?status=failed')).json<
      Array<{ id: number; failureReason: string; decidedBy: number }>
    >();
    expect(payouts.find((p) => p.id === payoutId)).toMatchObject({
      failureReason: DELETED_ACCOUNT_NOTE,
      decidedBy: adminId,
    });

    // $58 left + $10 refunded + $7 released, all to house:unclaimed.
    expect(await balanceOf(t.database, victimId)).toBe(0n);
    expect(await accountBalance(HOUSE_UNCLAIMED)).toBe(unclaimedBefore + 7_500n);
    // History is kept: the wallet's earlier postings are all still there, plus the new ones.
    expect(await postingCount(userWallet(victimId))).toBe(walletPostingsBefore + 3);

    // Personal data is erased and the name freed.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, victimId));
    expect(row).toMatchObject({
      username: deletedUsername(victimId),
      email: null,
      phoneNumber: null,
      state: null,
      avatarUrl: null,
      isAdmin: false,
      emailVerifiedAt: null,
      totpSecret: null,
      deletedAt: expect.any(Date),
    });
    // The verification link registration mailed, and the device it registered from, go too.
    const left = await queryRows<{ links: number; devices: number }>(
      t.database.db,
      sql`select (select count(*)::int from auth_tokens where user_id = ${victimId}) as links,
                 (select count(*)::int from known_devices where user_id = ${victimId}) as devices`,
    );
    expect(left[0]).toEqual({ links: 0, devices: 0 });
    const list = (await admin.get('/api/admin/users')).json<Array<{ id: number }>>();
    expect(list.some((u) => u.id === victimId)).toBe(false);
    const reuse = await signUp(t.app, { username: oldName });
    expect(reuse.user.id).not.toBe(victimId);

    const verification = (await admin.get('/api/admin/verifications')).json<
      Array<{ userId: number; status: string; note: string }>
    >();
    expect(verification.find((v) => v.userId === victimId)).toMatchObject({
      status: 'rejected',
      note: DELETED_ACCOUNT_NOTE,
    });

    const [audit] = await auditEntriesFor(
      t.database,
      { type: 'user', id: victimId },
      'user.delete',
    );
    expect(audit).toMatchObject({
      actorUserId: adminId,
      reason: 'Requested by the player',
      details: {
        cancelledChallengeIds: [open],
        disputedChallengeIds: [created, joined],
        failedPayoutIds: [payoutId],
        unclaimedCents: '7500',
        wasAdmin: false,
      },
    });
    // The audit entry names the account by id only: nothing personal to erase there.
    expect(JSON.stringify(audit?.details)).not.toContain(oldName);
  });

  it('after deletion: a second delete, a balance change and the old name all answer as unknown', async () => {
    const { user } = await signUp(t.app);
    expect(
      (await admin.request({ method: 'DELETE', url: `/api/admin/users/${user.id}` })).json(),
    ).toMatchObject({ unclaimed: 0 });
    const again = await admin.request({ method: 'DELETE', url: `/api/admin/users/${user.id}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(ADMIN_MESSAGES.userNotFound);
    const credit = await admin.post(`/api/admin/users/${user.id}/balance`, { amount: '5' });
    expect(credit.statusCode).toBe(404);
    expect(
      (await admin.request({ method: 'DELETE', url: '/api/admin/users/999999' })).statusCode,
    ).toBe(404);
  });

  it('refuses an admin deleting their own account', async () => {
    const response = await admin.request({ method: 'DELETE', url: `/api/admin/users/${adminId}` });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'FORBIDDEN',
      message: ADMIN_MESSAGES.cannotDeleteSelf,
    });
    expect((await admin.get('/api/admin/users')).statusCode).toBe(200);
  });

  it('a deleted admin loses the role and every session', async () => {
    const other = await signInAdmin(t);
    const response = await admin.request({ method: 'DELETE', url: `/api/admin/users/${other.id}` });
    expect(response.statusCode).toBe(200);
    expect((await other.agent.get('/api/admin/users')).statusCode).toBe(401);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, other.id));
    expect(row?.isAdmin).toBe(false);
    const [audit] = await auditEntriesFor(t.database, { type: 'user', id: other.id });
    expect(audit?.details).toMatchObject({ wasAdmin: true });
  });
});
