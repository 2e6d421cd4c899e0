import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_LINK_MESSAGES } from '#shared/contracts/account-security.ts';
import type { CreateChallengeBody, QuickMatchResponse } from '#shared/contracts/challenges.ts';
import type { PlayerPage } from '#shared/contracts/insights.ts';
import type { TournamentDetail } from '#shared/contracts/tournaments.ts';
import { deviceSignIns } from '#server/db/schema/account-security.ts';
import { auditLog } from '#server/db/schema/audit-log.ts';
import { signInAdmin } from '#server/features/admin/testing/admin-agent.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { hashDeviceId } from './device-links.ts';

/**
 * Devices and linked accounts (docs/accounts.md#devices): the device cookie, and two accounts
 * signed in on one device never meeting in a match, while players who merely share a browser
 * build or an address play on.
 */
let t: TestApp;
let admin: Agent;

/** Since Chrome's User-Agent reduction, every player on one release and system sends this. */
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp();
  ({ agent: admin } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

const terms: CreateChallengeBody = {
  game: 'EA Sports FC 25',
  amount: 10,
  gamerTag: 'Striker',
  phoneNumber: '5550108000',
  console: 'PlayStation',
};

/** A funded player signed up with Chrome from `address`, on `device` or a browser of its own. */
async function player(device?: string, address = '198.51.100.1') {
  const agent = new Agent(t.app, device);
  const response = await agent.request({
    method: 'POST',
    url: '/api/register',
    headers: { 'user-agent': CHROME },
    remoteAddress: address,
    payload: {
      username: `dev_${Math.random().toString(36).slice(2, 10)}`,
      password: 'correct-horse',
      phoneNumber: '+1 555 010 2000',
      isOver18: true,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const user = response.json<{ id: number; username: string }>();
  await fund(t.database, user.id, 10_000n);
  return { agent, user, device: agent.deviceId ?? '' };
}

/** Two accounts made on one browser: a player and the second account they opened. */
async function twins() {
  const first = await player();
  const second = await player(first.device);
  return [first, second] as const;
}

async function open(agent: Agent, body: Partial<CreateChallengeBody> = {}): Promise<number> {
  const response = await agent.post('/api/challenges', { ...terms, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}

describe('the device cookie', () => {
  it('is set on the first response of any kind, long-lived and unreadable by scripts, and then kept', async () => {
    for (const url of ['/api/health', '/api/leaderboard', '/api/no-such-route']) {
      const first = await t.app.inject({ method: 'GET', url });
      const device = first.cookies.find((cookie) => cookie.name === 'device');
      expect(device, url).toMatchObject({
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge: 400 * 86_400,
      });
      expect(device?.value).toMatch(/^[\w-]{22}$/);
      const again = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: `device=${device?.value}` },
      });
      expect(again.cookies.find((cookie) => cookie.name === 'device')).toBeUndefined();
    }
  });

  it('keeps the answer that sets it out of shared caches, and is Secure under https', async () => {
    const https = await createTestApp({
      env: { PUBLIC_URL: 'https://skillstake.example' },
      database: t.database,
    });
    try {
      const first = await https.app.inject({ method: 'GET', url: '/api/health' });
      expect(first.headers['cache-control']).toBe('private, no-store');
      expect(first.cookies.find((cookie) => cookie.name === 'device')).toMatchObject({
        secure: true,
      });
    } finally {
      await https.close();
    }
  });

  it('replaces a value no device id could be, so no chosen string stands for a device', async () => {
    for (const forged of ['x', 'a'.repeat(23), 'aaaaaaaaaaaaaaaaaaaaa!', '']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { cookie: `device=${forged}` },
      });
      const device = response.cookies.find((cookie) => cookie.name === 'device');
      expect(device?.value, forged).toMatch(/^[\w-]{22}$/);
    }
  });

  it('is kept across sign-outs and accounts, and stored only as its hash', async () => {
    const [first, second] = await twins();
    expect(second.agent.deviceId).toBe(first.device);
    await first.agent.post('/api/logout');
    expect(first.agent.deviceId).toBe(first.device);
    const rows = await t.database.db
      .select()
      .from(deviceSignIns)
      .where(eq(deviceSignIns.deviceHash, hashDeviceId(first.device)));
    expect(rows.map((row) => row.userId).sort()).toEqual([first.user.id, second.user.id].sort());
    expect(rows[0]).toMatchObject({ userAgent: CHROME, ipAddress: '198.51.100.1' });
    const stored = await t.database.db
      .select()
      .from(deviceSignIns)
      .where(eq(deviceSignIns.deviceHash, first.device));
    expect(stored).toEqual([]);
  });
});

describe('linked accounts never play each other', () => {
  it('refuses an acceptance and a direct challenge between two accounts of one browser, and charges nothing', async () => {
    const [first, second] = await twins();
    const id = await open(first.agent);
    const accepted = await second.agent.post(`/api/challenges/${id}/accept`);
    expect(accepted.statusCode).toBe(409);
    expect(accepted.json()).toMatchObject({
      code: 'LINKED_ACCOUNTS',
      message: DEVICE_LINK_MESSAGES.linkedAccounts,
    });
    expect(await balanceOf(t.database, second.user.id)).toBe(10_000n);
    const direct = await first.agent.post('/api/challenges', {
      ...terms,
      opponent: second.user.username,
    });
    expect(direct.statusCode).toBe(409);
    expect(direct.json()).toMatchObject({ code: 'LINKED_ACCOUNTS' });
    expect(await balanceOf(t.database, first.user.id)).toBe(9_000n);
  });

  it('lets players who share only a browser build and an address play: a crowd behind one carrier', async () => {
    const crowd = await Promise.all([player(), player(), player()]);
    const id = await open(crowd[0].agent);
    const accepted = await crowd[1].agent.post(`/api/challenges/${id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const direct = await crowd[2].agent.post('/api/challenges', {
      ...terms,
      opponent: crowd[0].user.username,
    });
    expect(direct.statusCode, direct.body).toBe(201);
  });

  it('passes a linked account over in quick match: the player opens a challenge, a stranger takes it', async () => {
    const [first, second] = await twins();
    const quick = { ...terms, game: 'Linked Quick Game' };
    const opened = await first.agent.post('/api/quick-match', quick);
    expect(opened.json<QuickMatchResponse>()).toMatchObject({ matched: false });
    const mine = await second.agent.post('/api/quick-match', quick);
    const own = mine.json<QuickMatchResponse>();
    expect(own.matched).toBe(false);
    expect(own.challenge.id).not.toBe(opened.json<QuickMatchResponse>().challenge.id);
    const stranger = await player();
    const met = (await stranger.agent.post('/api/quick-match', quick)).json<QuickMatchResponse>();
    expect(met).toMatchObject({ matched: true });
    expect(met.challenge.id).toBe(opened.json<QuickMatchResponse>().challenge.id);
  });

  it('refuses the second of two linked accounts in a tournament, and charges it nothing', async () => {
    const [first, second] = await twins();
    const created = await admin.post('/api/admin/tournaments', {
      game: 'Linked Cup',
      console: 'PlayStation',
      entryFee: 5,
      size: 4,
      startsAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<TournamentDetail>();
    expect((await first.agent.post(`/api/tournaments/${id}/join`)).statusCode).toBe(200);
    const refused = await second.agent.post(`/api/tournaments/${id}/join`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'LINKED_ACCOUNTS',
      message: DEVICE_LINK_MESSAGES.linkedAccounts,
    });
    expect(await balanceOf(t.database, second.user.id)).toBe(10_000n);
    const stranger = await player();
    expect((await stranger.agent.post(`/api/tournaments/${id}/join`)).statusCode).toBe(200);
  });

  it('forgets a link once its last shared sign-in is older than the risk window', async () => {
    const [first, second] = await twins();
    await t.database.db
      .update(deviceSignIns)
      .set({ lastSignedInAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(
        and(
          eq(deviceSignIns.userId, first.user.id),
          eq(deviceSignIns.deviceHash, hashDeviceId(first.device)),
        ),
      );
    const id = await open(first.agent);
    expect((await second.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  });
});

describe('an admin clears a link with a note', () => {
  it('shows the link on the player page, clears it once with its audit entry, and the pair may play', async () => {
    const [first, second] = await twins();
    const page = async () =>
      (await admin.get(`/api/admin/players/${first.user.id}`)).json<PlayerPage>();
    expect((await page()).deviceLinks).toEqual([
      {
        player: { id: second.user.id, username: second.user.username },
        lastSharedAt: expect.any(String),
        cleared: null,
      },
    ]);

    const url = `/api/admin/players/${first.user.id}/links/clear`;
    const noNote = await admin.post(url, { otherUserId: second.user.id, note: '  ' });
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json()).toMatchObject({ message: DEVICE_LINK_MESSAGES.noteRequired });
    const stranger = await player();
    const unlinked = await admin.post(url, { otherUserId: stranger.user.id, note: 'no' });
    expect(unlinked.statusCode).toBe(404);
    expect(unlinked.json()).toMatchObject({ message: DEVICE_LINK_MESSAGES.linkNotFound });
    const notAdmin = await first.agent.post(url, { otherUserId: second.user.id, note: 'me' });
    expect(notAdmin.statusCode).toBe(403);
    // An admin's second account on the admin's browser: another admin must clear that link.
    const adminsOwn = await player(admin.deviceId);
    const own = await admin.post(`/api/admin/players/${adminsOwn.user.id}/links/clear`, {
      otherUserId: (await admin.get('/api/user')).json<{ id: number }>().id,
      note: 'mine',
    });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ message: DEVICE_LINK_MESSAGES.ownLink });

    const cleared = await admin.post(url, {
      otherUserId: second.user.id,
      note: 'brothers, one console',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toEqual({ message: DEVICE_LINK_MESSAGES.linkCleared });
    // Again (a double click): nothing more is written.
    expect((await admin.post(url, { otherUserId: second.user.id, note: 'again' })).statusCode).toBe(
      200,
    );
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'user.link_cleared'), eq(auditLog.targetId, String(first.user.id))),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      reason: 'brothers, one console',
      details: { otherUserId: second.user.id },
    });
    expect((await page()).deviceLinks[0]?.cleared).toMatchObject({
      note: 'brothers, one console',
    });

    const id = await open(first.agent);
    expect((await second.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
  });
});

describe.runIf(onPostgres)('linked accounts on PostgreSQL', () => {
  it('two linked accounts accepting each other’s challenges and quick-matching at once never meet', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [first, second] = await twins();
      // Terms no other test uses: the only open challenges on them are the twins' own.
      const own = { ...terms, game: `Twin Race ${round}` };
      const [a, b] = [await open(first.agent, own), await open(second.agent, own)];
      const answers = await Promise.all([
        first.agent.post(`/api/challenges/${b}/accept`),
        second.agent.post(`/api/challenges/${a}/accept`),
        first.agent.post('/api/quick-match', own),
        second.agent.post('/api/quick-match', own),
      ]);
      expect(answers.slice(0, 2).map((answer) => answer.statusCode)).toEqual([409, 409]);
      for (const quick of answers.slice(2)) {
        expect(quick.json<QuickMatchResponse>().matched).toBe(false);
      }
    }
  });
});
