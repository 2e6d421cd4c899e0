import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateChallengeBody } from '#shared/contracts/challenges.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)('challenge races on PostgreSQL', () => {
  let t: TestApp;
  const body: CreateChallengeBody = {
    game: 'Rocket League',
    amount: 10,
    gamerTag: 'Racer',
    phoneNumber: '5550104000',
    console: 'PC',
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  async function funded(cents: bigint) {
    const player = await signUp(t.app);
    await fund(t.database, player.user.id, cents);
    return player;
  }

  it('50 simultaneous accepts: exactly one succeeds and only its stake moves', async () => {
    const creator = await funded(1000n);
    const { id } = (await creator.agent.post('/api/challenges', body)).json();
    const acceptors = await Promise.all(Array.from({ length: 50 }, () => funded(1000n)));
    const responses = await Promise.all(
      acceptors.map((a) => a.agent.post(`/api/challenges/${id}/accept`)),
    );
    const winners = responses.filter((r) => r.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(49);
    const balances = await Promise.all(acceptors.map((a) => balanceOf(t.database, a.user.id)));
    expect(balances.filter((b) => b === 0n)).toHaveLength(1);
    expect(balances.filter((b) => b === 1000n)).toHaveLength(49);
  });

  it('20 simultaneous submits: exactly one settlement', async () => {
    const creator = await funded(1000n);
    const acceptor = await funded(1000n);
    const { id } = (await creator.agent.post('/api/challenges', body)).json();
    await acceptor.agent.post(`/api/challenges/${id}/accept`);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? creator : acceptor).agent.post(`/api/challenges/${id}/submit`, {
          creatorScore: i % 2 ? 5 : 0,
          acceptorScore: i % 2 ? 0 : 5,
          screenshot: 'https://example.com/s.png',
        }),
      ),
    );
    // One report settles; the other player's first different report disputes it
    // (docs/fair-play.md); every other report is refused.
    const accepted = responses.filter((r) => r.statusCode === 200).map((r) => r.json().status);
    expect(accepted.sort()).toEqual(['completed', 'disputed']);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(18);
    const wallets =
      (await balanceOf(t.database, creator.user.id)) +
      (await balanceOf(t.database, acceptor.user.id));
    expect(wallets).toBe(0n);
    const held = await Promise.all(
      [creator, acceptor].map(async (p) => (await p.agent.get('/api/user')).json().underReview),
    );
    expect(held[0] + held[1]).toBe(19);
  });

  it('cancel racing accept: the creator withdraws it, or asks the acceptor to call it off', async () => {
    for (let round = 0; round < 10; round += 1) {
      const creator = await funded(1000n);
      const acceptor = await funded(1000n);
      const { id } = (await creator.agent.post('/api/challenges', body)).json();
      const [cancel, accept] = await Promise.all([
        creator.agent.post(`/api/challenges/${id}/cancel`),
        acceptor.agent.post(`/api/challenges/${id}/accept`),
      ]);
      const detail = (await creator.agent.get(`/api/challenges/${id}`)).json();
      if (accept.statusCode === 409) {
        expect(cancel.statusCode).toBe(200);
        expect(detail.status).toBe('cancelled');
        expect(await balanceOf(t.database, creator.user.id)).toBe(1000n);
        expect(await balanceOf(t.database, acceptor.user.id)).toBe(1000n);
      } else {
        // Accepted first: the creator's cancel is then a request to call the match off.
        expect(accept.statusCode).toBe(200);
        expect(detail.status).toBe('accepted');
        expect(cancel.statusCode).toBe(200);
        expect(detail.cancelRequestedBy).toEqual([creator.user.id]);
        expect(await balanceOf(t.database, acceptor.user.id)).toBe(0n);
      }
    }
  });
});
