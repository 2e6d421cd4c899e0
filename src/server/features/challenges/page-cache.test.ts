import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challenges } from '#server/db/schema/challenges.ts';
import type { ChallengeView, CreateChallengeBody } from '#shared/contracts/challenges.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { withTwoInstances } from '#tests/helpers/two-instances.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  Agent,
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { preferredEncoding } from '#server/lib/content-encoding.ts';
import { CHALLENGE_PAGE_TTL_MS, ChallengePageCache, type PageQuery } from './page-cache.ts';
import type { ChallengeRow } from './repository.ts';

const OPEN_PAGE = '/api/challenges?status=open&limit=50';

const challengeBody = (overrides: Partial<CreateChallengeBody> = {}): CreateChallengeBody => ({
  game: 'FIFA 25',
  amount: 5,
  gamerTag: 'CacheCheck',
  phoneNumber: '+1 555 010 4000',
  console: 'PlayStation',
  ...overrides,
});

/** Creates a challenge as `agent`'s player and returns it as the API answered. */
async function createChallenge(agent: Agent, overrides?: Partial<CreateChallengeBody>) {
  return (await agent.post('/api/challenges', challengeBody(overrides))).json<ChallengeView>();
}

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=1.0, GZIP;q=0.5', 'br'],
    ['br;q=0.4, gzip;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0', undefined],
    ['identity', undefined],
    ['*', 'br'],
    ['gzip, *;q=0', 'gzip'],
    ['gzip;q=0, br;q=0, *', undefined],
    ['br, *;q=0', 'br'],
    ['deflate, *;q=0', undefined],
  ])('%j → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('ChallengePageCache', () => {
  const query: PageQuery = { status: ['open'], limit: 50 };

  it('reads a page once for requests that arrive together, and again after its time', async () => {
    let reads = 0;
    const cache = new ChallengePageCache(async () => {
      reads += 1;
      return [] as ChallengeRow[];
    }, 1000);
    await Promise.all([cache.page(query, 0), cache.page(query, 10), cache.page(query, 999)]);
    expect(reads).toBe(1);
    await cache.page({ ...query, before: 10 }, 999);
    expect(reads).toBe(2);
    await cache.page(query, 1000);
    expect(reads).toBe(3);
  });

  it('keeps at most its number of pages, dropping the oldest', async () => {
    const reads: Array<number | undefined> = [];
    const cache = new ChallengePageCache(
      async (page) => {
        reads.push(page.before);
        return [] as ChallengeRow[];
      },
      60_000,
      2,
    );
    for (const before of [30, 20, 10]) await cache.page({ ...query, before }, 0);
    expect(cache.size).toBe(2);
    await cache.page({ ...query, before: 20 }, 0);
    await cache.page({ ...query, before: 30 }, 0);
    expect(reads).toEqual([30, 20, 10, 30]);
  });

  it('empties on any challenge or account event, and does not keep a failed read', async () => {
    let fail = true;
    let reads = 0;
    const cache = new ChallengePageCache(async () => {
      reads += 1;
      if (fail) throw new Error('database down');
      return [] as ChallengeRow[];
    });
    await expect(cache.page(query, 0)).rejects.toThrow('database down');
    fail = false;
    await cache.page(query, 1);
    expect(reads).toBe(2);
    for (const event of [
      { type: 'challenge', challengeId: 1, status: 'open', audience: 'all' },
      { type: 'user-changed', userId: 1 },
      { type: 'sessions-revoked', userId: 1 },
      { type: 'events-missed' },
    ] as const) {
      await cache.page(query, 2);
      expect(cache.size).toBe(1);
      cache.handle(event);
      expect(cache.size).toBe(0);
    }
    await cache.page(query, 3);
    cache.handle({
      type: 'balance',
      userId: 1,
      balanceCents: '100',
      availableCents: '100',
      underReviewCents: '0',
    });
    expect(cache.size).toBe(1);
  });
});

describe('GET /api/challenges for players', () => {
  let t: TestApp;
  let now = new Date('2031-05-01T10:00:00Z');

  beforeAll(async () => {
    t = await createTestApp({ clock: () => now });
  });
  afterAll(async () => {
    await expectLedgerHealthy(t.database);
    await t.close();
  });

  async function funded() {
    const player = await signUp(t.app);
    await fund(t.database, player.user.id, 10_000n);
    return player;
  }

  const ids = (response: { json: () => unknown }) =>
    (response.json() as ChallengeView[]).map((challenge) => challenge.id);

  it('answers each player as the detail page does: contact details on their own only', async () => {
    const creator = await funded();
    const other = await funded();
    const mine = await createChallenge(creator.agent);
    const theirs = await createChallenge(other.agent);

    for (const viewer of [creator, other, await signUp(t.app)]) {
      const page = (await viewer.agent.get(OPEN_PAGE)).json<ChallengeView[]>();
      for (const challenge of page.filter((c) => c.id === mine.id || c.id === theirs.id)) {
        const detail = await viewer.agent.get(`/api/challenges/${challenge.id}`);
        expect(challenge).toEqual(detail.json());
      }
    }
    const seenByCreator = (await creator.agent.get(OPEN_PAGE)).json<ChallengeView[]>();
    expect(seenByCreator.find((c) => c.id === mine.id)?.phoneNumber).toBe('+1 555 010 4000');
    expect(seenByCreator.find((c) => c.id === theirs.id)?.phoneNumber).toBeNull();
  });

  it('sends the page compressed as the browser asks, brotli first, the same JSON as without', async () => {
    const viewer = await signUp(t.app);
    const plain = await viewer.agent.get(OPEN_PAGE);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json<ChallengeView[]>().length).toBeGreaterThan(0);
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const compressed = await viewer.agent.request({
        method: 'GET',
        url: OPEN_PAGE,
        headers: { 'accept-encoding': accept },
      });
      expect(compressed.statusCode, accept).toBe(200);
      expect(compressed.headers['content-encoding'], accept).toBe(encoding);
      expect(compressed.headers['vary'], accept).toBe('accept-encoding');
      expect(compressed.headers['content-type'], accept).toBe('application/json; charset=utf-8');
      const body = decoders[encoding](compressed.rawPayload).toString('utf8');
      expect(JSON.parse(body), accept).toEqual(plain.json());
      expect(compressed.rawPayload.length, accept).toBeLessThan(Buffer.byteLength(body));
    }
  });

  it('shows a change at once: a new challenge, then its acceptance and a cancellation', async () => {
    const creator = await funded();
    const acceptor = await funded();
    const viewer = await signUp(t.app);
    const before = ids(await viewer.agent.get(OPEN_PAGE));

    const first = await createChallenge(creator.agent);
    const second = await createChallenge(creator.agent);
    expect(ids(await viewer.agent.get(OPEN_PAGE))).toEqual([second.id, first.id, ...before]);

    await acceptor.agent.post(`/api/challenges/${first.id}/accept`);
    expect(ids(await viewer.agent.get(OPEN_PAGE))).toEqual([second.id, ...before]);
    await creator.agent.post(`/api/challenges/${second.id}/cancel`);
    expect(ids(await viewer.agent.get(OPEN_PAGE))).toEqual(before);
  });

  it('keeps a page no longer than its time to live when no event says it changed', async () => {
    const creator = await funded();
    const viewer = await signUp(t.app);
    const created = await createChallenge(creator.agent, { game: 'Chess' });
    const gameOf = async () =>
      (await viewer.agent.get(OPEN_PAGE)).json<ChallengeView[]>().find((c) => c.id === created.id)
        ?.game;
    expect(await gameOf()).toBe('Chess');
    // Changed behind the application's back: no event, so only time refreshes the page.
    await t.database.db.update(challenges).set({ game: 'Go' }).where(eq(challenges.id, created.id));
    expect(await gameOf()).toBe('Chess');
    now = new Date(now.getTime() + CHALLENGE_PAGE_TTL_MS);
    expect(await gameOf()).toBe('Go');
  });
});

describe.runIf(onPostgres)('challenge pages across instances on one PostgreSQL', () => {
  it('a challenge created through instance A is on instance B’s page at once', async () => {
    await withTwoInstances(async (a, b, database) => {
      const creator = await signUp(a.app);
      await fund(database, creator.user.id, 10_000n);
      const viewer = await signUp(a.app);
      const onB = new Agent(b.app);
      onB.useCookie(viewer.agent.sessionCookie);
      const pageOnB = async () =>
        (await onB.get(OPEN_PAGE)).json<ChallengeView[]>().map((challenge) => challenge.id);
      const before = await pageOnB();

      const created = await createChallenge(creator.agent);
      // Far sooner than the page's time to live: the event, not the clock, refreshed it.
      await expect
        .poll(pageOnB, { timeout: CHALLENGE_PAGE_TTL_MS / 2 })
        .toEqual([created.id, ...before]);
      await expectLedgerHealthy(database);
    });
  });
});
