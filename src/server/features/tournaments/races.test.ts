import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentDetail } from '#shared/contracts/tournaments.ts';
import { createAppContext } from '#server/context.ts';
import { onPostgres } from '#tests/helpers/database.ts';
import { balanceOf, fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type Agent,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { runTournamentPass } from './worker.ts';

// Races only show on PostgreSQL: PGlite has one connection and runs transactions one by one.
describe.runIf(onPostgres)('tournament races on PostgreSQL', () => {
  let now = new Date('2031-06-01T12:00:00Z');
  const clock = () => now;
  let t: TestApp;
  let admin: Agent;
  const ctx = () => createAppContext({ env: t.env, database: t.database, bus: t.bus, clock });

  beforeAll(async () => {
    t = await createTestApp({
      clock,
      env: { SESSION_IDLE_MINUTES: '43200', SESSION_MAX_DAYS: '365' },
    });
    ({ agent: admin } = await signInAdmin(t));
  });
  afterEach(async () => {
    await expectLedgerHealthy(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  async function players(count: number) {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const { agent, user } = await signUp(t.app);
        await fund(t.database, user.id, 1000n);
        return { agent, id: user.id };
      }),
    );
  }

  async function create(): Promise<TournamentDetail> {
    const response = await admin.post('/api/admin/tournaments', {
      game: 'Tekken 8',
      console: 'PlayStation',
      entryFee: 5,
      size: 4,
      startsAt: new Date(now.getTime() + 3_600_000).toISOString(),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  it('a time-out racing the same player joining and leaving refunds each fee once (issue 35)', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [first, second] = [await create(), await create()];
      const [player] = await players(1);
      expect((await player!.agent.post(`/api/tournaments/${first.id}/join`)).statusCode).toBe(200);
      const answers = await Promise.all([
        player!.agent.post('/api/responsible-gaming/time-out', { days: 1 }),
        player!.agent.post(`/api/tournaments/${first.id}/leave`),
        player!.agent.post(`/api/tournaments/${second.id}/join`),
      ]);
      expect(answers[0]!.statusCode, answers[0]!.body).toBe(200);
      // Whatever came first, the player holds no place now, or holds one the start will give
      // back (a join that read the standing before the break committed): either way no fee is
      // lost and none is refunded twice.
      now = new Date(now.getTime() + 2 * 3_600_000);
      await runTournamentPass(ctx());
      expect(await balanceOf(t.database, player!.id)).toBe(1000n);
    }
  });

  it('20 players race for the last place: one gets it, the others are refused before paying', async () => {
    const tournament = await create();
    for (const entrant of await players(3))
      expect((await entrant.agent.post(`/api/tournaments/${tournament.id}/join`)).statusCode).toBe(
        200,
      );
    const racers = await players(20);
    const responses = await Promise.all(
      racers.map((racer) => racer.agent.post(`/api/tournaments/${tournament.id}/join`)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const refused = responses.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(19);
    for (const response of refused)
      expect(response.json()).toMatchObject({ code: 'TOURNAMENT_FULL' });
    const balances = await Promise.all(racers.map((racer) => balanceOf(t.database, racer.id)));
    expect(balances.filter((b) => b === 500n)).toHaveLength(1);
    expect(balances.filter((b) => b === 1000n)).toHaveLength(19);
    await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
  });

  it('a leave racing the start: left and cancelled for want of players, or started and refused', async () => {
    for (let round = 0; round < 6; round += 1) {
      now = new Date(now.getTime() + 2 * 3_600_000);
      const tournament = await create();
      const entrants = await players(4);
      for (const entrant of entrants)
        expect(
          (await entrant.agent.post(`/api/tournaments/${tournament.id}/join`)).statusCode,
        ).toBe(200);
      const leaver = entrants[0];
      if (!leaver) throw new Error('an entrant');
      // The player leaves at the start time's last instant while the worker, whose clock has
      // reached it, starts the tournament: whichever takes the tournament's lock first wins.
      const startsAt = new Date(tournament.startsAt);
      now = new Date(startsAt.getTime() - 1);
      const worker = createAppContext({
        env: t.env,
        database: t.database,
        bus: t.bus,
        clock: () => startsAt,
      });
      const [leave, pass] = await Promise.all([
        leaver.agent.post(`/api/tournaments/${tournament.id}/leave`),
        runTournamentPass(worker),
      ]);
      // A pass that found the tournament held by the leave passed it over (SKIP LOCKED), as
      // instances do: the next tick takes it.
      await runTournamentPass(worker);
      const view = (await admin.get(`/api/tournaments/${tournament.id}`)).json<TournamentDetail>();
      if (leave.statusCode === 200) {
        expect(view.status).toBe('cancelled');
        for (const entrant of entrants) expect(await balanceOf(t.database, entrant.id)).toBe(1000n);
      } else {
        expect(leave.json()).toMatchObject({ code: 'TOURNAMENT_NOT_OPEN' });
        expect(view.status).toBe('live');
        expect(pass.started).toBe(1);
        await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
      }
    }
  });

  it('two instances running the worker at once start a tournament once', async () => {
    now = new Date(now.getTime() + 2 * 3_600_000);
    const tournament = await create();
    for (const entrant of await players(4))
      await entrant.agent.post(`/api/tournaments/${tournament.id}/join`);
    now = new Date(new Date(tournament.startsAt).getTime() + 1000);
    const passes = await Promise.all([runTournamentPass(ctx()), runTournamentPass(ctx())]);
    expect(passes[0].started + passes[1].started).toBe(1);
    const view = (await admin.get(`/api/tournaments/${tournament.id}`)).json<TournamentDetail>();
    expect(view.matches).toHaveLength(3);
    await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
  });

  it('two workers and a late report racing a match past its time limit: it is decided once', async () => {
    for (let round = 0; round < 4; round += 1) {
      now = new Date(now.getTime() + 2 * 3_600_000);
      const tournament = await create();
      const entrants = await players(4);
      for (const entrant of entrants)
        await entrant.agent.post(`/api/tournaments/${tournament.id}/join`);
      now = new Date(new Date(tournament.startsAt).getTime() + 1000);
      await runTournamentPass(ctx());
      const started = (
        await admin.get(`/api/tournaments/${tournament.id}`)
      ).json<TournamentDetail>();
      const match = started.matches.find((m) => m.round === 1 && m.slot === 0);
      const reporter = entrants.find((entrant) => entrant.id === match?.playerB?.id);
      if (!match || !reporter) throw new Error('no first match');
      now = new Date(now.getTime() + (t.env.TOURNAMENT_MATCH_MINUTES + 1) * 60_000);
      const [report, ...passes] = await Promise.all([
        reporter.agent.post(`/api/tournaments/${tournament.id}/matches/${match.id}/submit`, {
          creatorScore: 0,
          acceptorScore: 2,
          screenshot: 'https://example.com/late.png',
        }),
        runTournamentPass(ctx()),
        runTournamentPass(ctx()),
      ]);
      // A worker that found the tournament locked by the report skipped it: the next pass takes it.
      passes.push(await runTournamentPass(ctx()));
      const view = (await admin.get(`/api/tournaments/${tournament.id}`)).json<TournamentDetail>();
      const first = view.matches.find((m) => m.id === match.id);
      if (report?.statusCode === 200) {
        expect(first).toMatchObject({ status: 'reported', winnerId: reporter.id });
      } else {
        expect(first).toMatchObject({ status: 'done', standCause: 'time_limit' });
      }
      // The other first-round match is decided by exactly one of the passes.
      expect(view.matches.find((m) => m.round === 1 && m.slot === 1)).toMatchObject({
        status: 'done',
        standCause: 'time_limit',
      });
      expect(passes.reduce((sum, pass) => sum + pass.timedOut, 0)).toBe(1);
      await admin.post(`/api/admin/tournaments/${tournament.id}/cancel`);
    }
  });
});
