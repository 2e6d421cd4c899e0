import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FILTER_MESSAGES,
  type ChallengeView,
  type CreateChallengeBody,
} from '#shared/contracts/challenges.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';

/**
 * The lobby's filters on GET /api/challenges and its counts
 * (docs/challenges.md#finding-an-opponent).
 */
let t: TestApp;
let creator: Awaited<ReturnType<typeof signUp>>;
let viewer: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp();
  creator = await signUp(t.app);
  viewer = await signUp(t.app);
  await fund(t.database, creator.user.id, 100_000n);
  await fund(t.database, viewer.user.id, 100_000n);
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

let games = 0;
/** A game name no other test uses, so each test sees only its own challenges. */
const uniqueGame = (name: string) => {
  games += 1;
  return `${name} ${games}`;
};

async function create(overrides: Partial<CreateChallengeBody>): Promise<ChallengeView> {
  const response = await creator.agent.post('/api/challenges', {
    game: 'Chess',
    amount: 10,
    gamerTag: 'Tag',
    phoneNumber: '+1 555 010 3000',
    console: 'PC',
    ...overrides,
  });
  expect(response.statusCode).toBe(201);
  return response.json<ChallengeView>();
}

async function list(query: string): Promise<ChallengeView[]> {
  const response = await viewer.agent.get(`/api/challenges?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ChallengeView[]>();
}

const ids = (challenges: ChallengeView[]) => challenges.map((challenge) => challenge.id);

describe('GET /api/challenges with the lobby filters', () => {
  it('finds a game by any part of its name, whatever its case', async () => {
    const game = uniqueGame('EA Sports FC 26');
    const fc = await create({ game });
    await create({ game: uniqueGame('Madden NFL 26') });

    expect(ids(await list(`status=open&game=${encodeURIComponent('sports fc')}`))).toContain(fc.id);
    const exact = await list(`status=open&game=${encodeURIComponent(game.toUpperCase())}`);
    expect(ids(exact)).toEqual([fc.id]);
  });

  it('reads % and _ in a game search as themselves, not as wildcards', async () => {
    const percent = await create({ game: uniqueGame('100% Orange Juice') });
    await create({ game: uniqueGame('1000 Orange Juice') });

    expect(ids(await list(`game=${encodeURIComponent('100% Orange')}`))).toEqual([percent.id]);
    expect(await list(`game=${encodeURIComponent('10_ Orange')}`)).toEqual([]);
  });

  it('keeps one console, and stakes between the bounds, both included', async () => {
    const game = uniqueGame('Rocket League');
    const cheapXbox = await create({ game, console: 'Xbox', amount: 5 });
    const midXbox = await create({ game, console: 'Xbox', amount: 20 });
    const dearXbox = await create({ game, console: 'Xbox', amount: 50 });
    await create({ game, console: 'PlayStation', amount: 20 });
    const q = `game=${encodeURIComponent(game)}`;

    expect(ids(await list(`${q}&console=Xbox`))).toEqual([dearXbox.id, midXbox.id, cheapXbox.id]);
    expect(ids(await list(`${q}&console=Xbox&minAmount=5&maxAmount=20`))).toEqual([
      midXbox.id,
      cheapXbox.id,
    ]);
    expect(ids(await list(`${q}&console=Xbox&minAmount=20.01`))).toEqual([dearXbox.id]);
    // Empty values are no filter: a form may send every field.
    expect(await list(`${q}&console=&minAmount=&maxAmount=&sort=newest`)).toHaveLength(4);
  });

  it('sorts by stake either way, with ties in a fixed order, and pages through with before', async () => {
    const game = uniqueGame('Tekken 8');
    const a = await create({ game, amount: 30 });
    const b = await create({ game, amount: 10 });
    const c = await create({ game, amount: 30 });
    const d = await create({ game, amount: 20 });
    const q = `game=${encodeURIComponent(game)}`;

    expect(ids(await list(`${q}&sort=amount_desc`))).toEqual([c.id, a.id, d.id, b.id]);
    expect(ids(await list(`${q}&sort=amount_asc`))).toEqual([b.id, d.id, a.id, c.id]);
    expect(ids(await list(`${q}&sort=newest`))).toEqual([d.id, c.id, b.id, a.id]);

    // Pages of two: the second starts after the last challenge of the first, in the same order.
    const first = await list(`${q}&sort=amount_desc&limit=2`);
    expect(ids(first)).toEqual([c.id, a.id]);
    expect(ids(await list(`${q}&sort=amount_desc&limit=2&before=${a.id}`))).toEqual([d.id, b.id]);
    expect(ids(await list(`${q}&sort=amount_asc&limit=2&before=${d.id}`))).toEqual([a.id, c.id]);
    expect(ids(await list(`${q}&limit=2&before=${c.id}`))).toEqual([b.id, a.id]);
  });

  it('answers without filters exactly as before: every status, newest first', async () => {
    const game = uniqueGame('Street Fighter 6');
    const open = await create({ game });
    const accepted = await create({ game });
    expect((await viewer.agent.post(`/api/challenges/${accepted.id}/accept`)).statusCode).toBe(200);

    const all = await list('');
    expect(ids(all)).toEqual(ids(all).toSorted((x, y) => y - x));
    expect(ids(all)).toEqual(expect.arrayContaining([open.id, accepted.id]));
    expect(all).toEqual(await list('sort=newest'));
  });

  it('filters the viewer’s own lists too (the Active tab)', async () => {
    const game = uniqueGame('Halo Infinite');
    const xbox = await create({ game, console: 'Xbox' });
    const pc = await create({ game, console: 'PC' });
    for (const { id } of [xbox, pc]) {
      expect((await viewer.agent.post(`/api/challenges/${id}/accept`)).statusCode).toBe(200);
    }
    const mine = await list(
      `status=accepted&role=mine&game=${encodeURIComponent(game)}&console=Xbox`,
    );
    expect(ids(mine)).toEqual([xbox.id]);
    // The viewer is a player here: they see the creator's phone.
    expect(mine[0]?.phoneNumber).toBe('+1 555 010 3000');
  });

  it('shows a new challenge in a filtered page at once, though pages are cached', async () => {
    const game = uniqueGame('Mortal Kombat 1');
    const q = `status=open&game=${encodeURIComponent(game)}&sort=amount_asc`;
    expect(await list(q)).toEqual([]);
    expect(await list(q)).toEqual([]);
    const created = await create({ game });
    expect(ids(await list(q))).toEqual([created.id]);
  });

  it.each([
    ['console=Atari', 'console', FILTER_MESSAGES.console],
    ['minAmount=ten', 'minAmount', FILTER_MESSAGES.minAmount],
    ['minAmount=-5', 'minAmount', FILTER_MESSAGES.minAmount],
    ['maxAmount=1.234', 'maxAmount', FILTER_MESSAGES.maxAmount],
    ['minAmount=50&maxAmount=20', 'maxAmount', FILTER_MESSAGES.range],
    ['sort=cheapest', 'sort', FILTER_MESSAGES.sort],
    [`game=${'x'.repeat(81)}`, 'game', FILTER_MESSAGES.gameMax],
  ])('refuses %s with the API’s error shape', async (query, field, message) => {
    // The counts take the filters but no order.
    const urls = [`/api/challenges?${query}`];
    if (field !== 'sort') urls.push(`/api/challenges/counts?${query}`);
    for (const url of urls) {
      const response = await viewer.agent.get(url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'VALIDATION_FAILED',
        message,
        fields: { [field]: message },
      });
    }
  });
});

describe('GET /api/challenges/counts with the lobby filters', () => {
  it('counts what each filtered tab shows', async () => {
    const game = uniqueGame('Fortnite');
    await create({ game, console: 'PC', amount: 5 });
    await create({ game, console: 'PC', amount: 15 });
    const played = await create({ game, console: 'PC', amount: 15 });
    expect((await viewer.agent.post(`/api/challenges/${played.id}/accept`)).statusCode).toBe(200);
    const q = `game=${encodeURIComponent(game.toLowerCase())}`;

    const counts = async (query: string) =>
      (await viewer.agent.get(`/api/challenges/counts?${query}`)).json();
    expect(await counts(q)).toEqual({
      available: 2,
      active: 1,
      completed: 0,
      created: 0,
      accepted: 1,
    });
    expect(await counts(`${q}&minAmount=10`)).toMatchObject({ available: 1, active: 1 });
    expect(await counts(`${q}&console=Xbox`)).toMatchObject({ available: 0, active: 0 });
  });
});
