import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ensureAdmin } from '#server/features/accounts/admin-bootstrap.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { withTwoInstances } from '#tests/helpers/two-instances.ts';
import {
  Agent,
  createTestApp,
  signUp,
  uniqueUsername,
  type TestApp,
} from '#tests/helpers/test-app.ts';

let t: TestApp;
let baseUrl: string;
let admin: Agent;

async function listen(app: TestApp['app']): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Opens a socket and collects its messages; resolves once open, rejects on refusal. */
function connect(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(`${url}/ws`, { headers });
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
  async function next(predicate: (m: Record<string, unknown>) => boolean, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching message; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }
  return { socket, messages, opened, closed, next };
}

const cookieOf = (agent: Agent) => ({ cookie: `sid=${agent.sessionCookie}` });

beforeAll(async () => {
  // The client and the server of these tests share one process: a PONG is read within one ping
  // interval only if the process gets the CPU in time. A second is ample on a loaded machine;
  // 200 ms was not (the polite socket of the ping test was dropped in a CI run).
  t = await createTestApp({ pingIntervalMs: 1000 });
  baseUrl = await listen(t.app);
  const username = uniqueUsername('wsadmin');
  await ensureAdmin(t.database.db, t.bus, username, 'admin-password');
  admin = new Agent(t.app);
  await admin.post('/api/login', { username, password: 'admin-password' });
});
afterAll(async () => {
  await t.close();
});

describe('account socket /ws', () => {
  it('refuses a connection without a session', async () => {
    await expect(connect(baseUrl, {}).opened).rejects.toThrow('HTTP 401');
    await expect(connect(baseUrl, { cookie: 'sid=forged' }).opened).rejects.toThrow('HTTP 401');
  });

  it('refuses a connection from a foreign origin', async () => {
    const { agent } = await signUp(t.app);
    await expect(
      connect(baseUrl, { ...cookieOf(agent), origin: 'https://evil.example' }).opened,
    ).rejects.toThrow('HTTP 403');
  });

  it('pings, keeps sockets that answer PONG, and drops those that do not', async () => {
    const { agent } = await signUp(t.app);
    const polite = connect(baseUrl, cookieOf(agent));
    const silent = connect(baseUrl, cookieOf(agent));
    await Promise.all([polite.opened, silent.opened]);
    polite.socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'PING')
        polite.socket.send(JSON.stringify({ type: 'PONG' }));
    });
    polite.socket.send('not json at all');
    await polite.next((m) => m.type === 'PING');
    expect(await silent.closed).toBe(1006);
    // The next beat pings the polite socket again rather than dropping it.
    const pings = () => polite.messages.filter((m) => m.type === 'PING').length;
    const before = pings();
    await polite.next(() => pings() > before);
    expect(polite.socket.readyState).toBe(WebSocket.OPEN);
    polite.socket.close();
  });

  it('sends BALANCE_UPDATE to every tab of the owner and to no one else', async () => {
    const owner = await signUp(t.app);
    const bystander = await signUp(t.app);
    const tabA = connect(baseUrl, cookieOf(owner.agent));
    const tabB = connect(baseUrl, cookieOf(owner.agent));
    const other = connect(baseUrl, cookieOf(bystander.agent));
    await Promise.all([tabA.opened, tabB.opened, other.opened]);

    await admin.post(`/api/admin/users/${owner.user.id}/balance`, { amount: '42.5' });
    const expected = {
      type: 'BALANCE_UPDATE',
      userId: owner.user.id,
      newBalance: 42.5,
      available: 42.5,
      underReview: 0,
    };
    expect(await tabA.next((m) => m.type === 'BALANCE_UPDATE')).toEqual(expected);
    expect(await tabB.next((m) => m.type === 'BALANCE_UPDATE')).toEqual(expected);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other.messages.filter((m) => m.type === 'BALANCE_UPDATE')).toEqual([]);
    for (const c of [tabA, tabB, other]) c.socket.close();
  });

  it('closes the sockets of a session when it logs out', async () => {
    const { agent } = await signUp(t.app);
    const tab = connect(baseUrl, cookieOf(agent));
    await tab.opened;
    await agent.post('/api/logout');
    expect(await tab.closed).toBe(4001);
  });
});

describe.runIf(onPostgres)('across instances on one PostgreSQL', () => {
  it('a balance change made through instance A reaches a socket on instance B', async () => {
    await withTwoInstances(async (a, b, database) => {
      const urlB = await listen(b.app);
      const username = uniqueUsername('admin_a');
      await ensureAdmin(database.db, a.bus, username, 'admin-password');
      const adminA = new Agent(a.app);
      await adminA.post('/api/login', { username, password: 'admin-password' });
      const player = await signUp(a.app);

      const tab = connect(urlB, cookieOf(player.agent));
      await tab.opened;
      await adminA.post(`/api/admin/users/${player.user.id}/balance`, { amount: '8.25' });
      expect(await tab.next((m) => m.type === 'BALANCE_UPDATE')).toEqual({
        type: 'BALANCE_UPDATE',
        userId: player.user.id,
        newBalance: 8.25,
        available: 8.25,
        underReview: 0,
      });
      tab.socket.close();
    });
  });
});
