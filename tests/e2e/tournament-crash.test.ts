import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, reachable, startApp, until, type RunningApp } from './harness.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

/**
 * The tournament worker killed with SIGKILL (DESIGN §13, decision 0020). Two server processes
 * share one PostgreSQL database and both run the worker. Three times, once work is due on many
 * tournaments at once, both are killed as soon as some of the work is done and the rest is not:
 * the starts (draws, and the cancellations with their refunds of tournaments not full), the
 * advances of results whose review ended, and the finals that end them (payouts, some by a
 * review that ended, some by the match's time limit). They are restarted each time. Afterwards
 * `npm run ledger:check` passes, every tournament was started or cancelled once, every match
 * decided once, every payout and refund made once, and each player's wallet is exactly what
 * their entries and prizes say.
 *
 * PostgreSQL only (several instances on one database; the start times, reviews and time limits
 * are brought forward by hand, as minutes would); it creates and drops a database of its own.
 */
const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PLAYERS = 8;
const TOURNAMENTS = 16;
const ENTRY_FEE_CENTS = 300n;
const CREDIT_DOLLARS = 50;
/** 5% of a full pool of four $3 entries: the house's fee on each finished tournament. */
const FEE_CENTS = 60n;

const onPostgres = await reachable(ADMIN_URL);

let database = '';
let env: Record<string, string> = {};
let pool: pg.Pool | undefined;
const apps: Array<RunningApp | undefined> = [undefined, undefined];

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  if (!pool) throw new Error('no database');
  return (await pool.query(text, values)).rows as T[];
}

async function count(text: string, values: unknown[] = []): Promise<number> {
  const [row] = await rows<{ count: string }>(text, values);
  return Number(row?.count ?? 0);
}

beforeAll(async () => {
  if (!onPostgres) return;
  database = `skillstake_tournament_crash_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  env = { DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' };
});

afterAll(async () => {
  for (const app of apps) await app?.stop({ signal: 'SIGKILL' });
  await pool?.end();
  if (database) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

interface Player {
  id: number;
  cookie: string;
}

/** The first instance still running: players' requests go there. */
function baseUrl(): string {
  const app = apps.find((running) => running !== undefined);
  if (!app) throw new Error('no instance running');
  return app.baseUrl;
}

async function call(player: Player, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { cookie: player.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function register(): Promise<Player> {
  const registered = await fetch(`${baseUrl()}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: `tcrash_${randomBytes(4).toString('hex')}`,
      password: 'tournament-crash-password',
      phoneNumber: '+1 555 010 7000',
      state: 'NY',
      isOver18: true,
    }),
  });
  expect(registered.status).toBe(201);
  const cookie = sessionCookieOf(registered);
  const { id } = (await registered.json()) as { id: number };
  await adminCall(baseUrl(), 'POST', `/api/admin/users/${id}/balance`, {
    amount: String(CREDIT_DOLLARS),
  });
  return { id, cookie };
}

/**
 * Makes `due` true by hand (as the clock would), waits until the workers have done some of the
 * work and not all of it (`progress` out of `total`), and kills both instances with SIGKILL there
 * and then, so that whichever was at work dies mid-pass; both are restarted at once. Answers how
 * much was done at the kill.
 */
async function killMidway(
  due: string,
  progress: () => Promise<number>,
  total: number,
): Promise<number> {
  await rows(due);
  const done = await until('the workers under way', async () => {
    const now = await progress();
    return now > 0 ? now : undefined;
  });
  await Promise.all(apps.map((app) => app?.stop({ signal: 'SIGKILL' })));
  apps.fill(undefined);
  expect(done, 'killed before the workers finished').toBeLessThan(total);
  apps[0] = await startApp(env);
  apps[1] = await startApp(env);
  return done;
}

describe.skipIf(!onPostgres)('the tournament worker under SIGKILL', () => {
  it('starts, advances, times out and pays every tournament exactly once across kills', async ({
    annotate,
  }) => {
    apps[0] = await startApp(env);
    apps[1] = await startApp(env);
    const players: Player[] = [];
    for (let i = 0; i < PLAYERS; i += 1) players.push(await register());
    const byId = new Map(players.map((player) => [player.id, player]));

    // Sixteen tournaments of four; every fourth gets three players and is cancelled at its start.
    const ids: number[] = [];
    for (let t = 0; t < TOURNAMENTS; t += 1) {
      const { id } = await adminCall<{ id: number }>(baseUrl(), 'POST', '/api/admin/tournaments', {
        game: 'Tekken 8',
        console: 'PlayStation',
        entryFee: Number(ENTRY_FEE_CENTS / 100n),
        size: 4,
        startsAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      ids.push(id);
      const entrants = t % 4 === 3 ? 3 : 4;
      for (let k = 0; k < entrants; k += 1) {
        await call(players[(t + k) % PLAYERS]!, `/api/tournaments/${id}/join`);
      }
    }

    // 1. The start time comes for all of them at once.
    const startedAtKill = await killMidway(
      `update tournaments set starts_at = now() where status = 'open'`,
      () => count(`select count(*)::text as count from tournaments where status <> 'open'`),
      TOURNAMENTS,
    );
    await until('every start', async () =>
      (await count(`select count(*)::text as count from tournaments where status = 'open'`)) === 0
        ? true
        : undefined,
    );
    const live = await rows<{ id: number }>(
      `select id from tournaments where status = 'live' order by id`,
    );
    expect(live).toHaveLength(12);

    // 2. Every first-round result is reported by its first player, and its review ends.
    const firstRound = await rows<{ id: number; tournament_id: number; player_a_id: number }>(
      `select id, tournament_id, player_a_id from tournament_matches where round = 1 order by id`,
    );
    expect(firstRound).toHaveLength(24);
    for (const match of firstRound) {
      await call(
        byId.get(match.player_a_id)!,
        `/api/tournaments/${match.tournament_id}/matches/${match.id}/submit`,
        { creatorScore: 3, acceptorScore: 1, screenshot: 'https://example.com/round1.png' },
      );
    }
    const advancedAtKill = await killMidway(
      `update tournament_matches set review_ends_at = now() - interval '1 second'
       where status = 'reported'`,
      () =>
        count(
          `select count(*)::text as count from tournament_matches where round = 1 and status = 'done'`,
        ),
      firstRound.length,
    );
    await until('every final under way', async () =>
      (await count(
        `select count(*)::text as count from tournament_matches where round = 2 and status = 'playing'`,
      )) === live.length
        ? true
        : undefined,
    );

    // 3. Half the finals are reported and their reviews end; nobody plays the others, and their
    // time limit passes. Each ends its tournament with the payout.
    const finals = await rows<{ id: number; tournament_id: number; player_a_id: number }>(
      `select id, tournament_id, player_a_id from tournament_matches where round = 2 order by id`,
    );
    const reported = finals.filter((_, index) => index % 2 === 0);
    const unplayed = finals.filter((_, index) => index % 2 === 1);
    for (const match of reported) {
      await call(
        byId.get(match.player_a_id)!,
        `/api/tournaments/${match.tournament_id}/matches/${match.id}/submit`,
        { creatorScore: 3, acceptorScore: 1, screenshot: 'https://example.com/final.png' },
      );
    }
    const paidAtKill = await killMidway(
      `update tournament_matches set review_ends_at = now() - interval '1 second'
         where status = 'reported';
       update tournament_matches set ready_at = ready_at - interval '1 day'
         where status = 'playing'`,
      () => count(`select count(*)::text as count from tournaments where status = 'finished'`),
      live.length,
    );
    await until('every payout', async () =>
      (await count(`select count(*)::text as count from tournaments where status = 'live'`)) === 0
        ? true
        : undefined,
    );
    for (const [index, app] of apps.entries()) {
      expect(await app?.stop({ signal: 'SIGTERM' })).toBe(0);
      apps[index] = undefined;
    }

    // ---- the operator's daily check ---------------------------------------------------------
    const check = spawnSync('npm', ['run', '--silent', 'ledger:check'], {
      env: { ...process.env, DATABASE_URL: env.DATABASE_URL, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(check.stdout + check.stderr).toContain('Ledger OK');
    expect(check.status).toBe(0);

    // ---- every tournament started or cancelled once, every match decided once ---------------
    const tournaments = await rows<{ id: number; status: string; seed: string | null }>(
      'select id, status, seed from tournaments order by id',
    );
    expect(tournaments.map((row) => row.status)).toEqual(
      ids.map((_, t) => (t % 4 === 3 ? 'cancelled' : 'finished')),
    );
    const escrowKeys = tournaments.map((row) => `escrow:tournament:${row.id}`);
    const escrows = await rows<{ balance: string }>(
      'select balance_cents::text as balance from ledger_accounts where key = any($1)',
      [escrowKeys],
    );
    expect(escrows.every((row) => row.balance === '0')).toBe(true);
    const matches = await rows<{ tournament_id: number; round: number; stand_cause: string }>(
      `select tournament_id, round, stand_cause from tournament_matches
       where status = 'done' order by tournament_id, round, slot`,
    );
    expect(matches).toHaveLength(live.length * 3);
    const finalCause = new Map(
      matches.filter((m) => m.round === 2).map((m) => [m.tournament_id, m.stand_cause]),
    );
    for (const match of reported) expect(finalCause.get(match.tournament_id)).toBe('review_ended');
    for (const match of unplayed) expect(finalCause.get(match.tournament_id)).toBe('time_limit');
    expect(
      matches.filter((m) => m.round === 1).every((m) => m.stand_cause === 'review_ended'),
    ).toBe(true);

    // ---- every join, refund and payout in the ledger exactly once ---------------------------
    const entries = await rows<{
      id: number;
      tournament_id: number;
      user_id: number;
      prize_cents: string | null;
    }>('select id, tournament_id, user_id, prize_cents::text from tournament_entries');
    const transfers = await rows<{ key: string; times: string }>(
      `select idempotency_key as key, count(*)::text as times from ledger_transfers
       where idempotency_key like 'tournament:%' group by idempotency_key`,
    );
    const times = new Map(transfers.map((row) => [row.key, Number(row.times)]));
    const status = new Map(tournaments.map((row) => [row.id, row.status]));
    const expected = [
      ...entries.map((entry) => `tournament:join:${entry.id}`),
      ...entries
        .filter((entry) => status.get(entry.tournament_id) === 'cancelled')
        .map((entry) => `tournament:refund:${entry.id}`),
      ...tournaments
        .filter((row) => row.status === 'finished')
        .map((row) => `tournament:payout:${row.id}`),
    ].sort();
    expect([...times.keys()].sort()).toEqual(expected);
    expect([...times.values()].every((n) => n === 1)).toBe(true);

    // ---- each wallet is exactly its credit, minus its fees played, plus its prizes ----------
    const houseFees = await count(
      `select balance_cents::text as count from ledger_accounts where key = 'house:fees'`,
    );
    expect(BigInt(houseFees)).toBe(FEE_CENTS * BigInt(live.length));
    for (const player of players) {
      const own = entries.filter((entry) => entry.user_id === player.id);
      const played = own.filter((entry) => status.get(entry.tournament_id) === 'finished');
      const prizes = own.reduce((sum, entry) => sum + BigInt(entry.prize_cents ?? '0'), 0n);
      const wallet = await count(
        `select balance_cents::text as count from ledger_accounts where key = $1`,
        [`user:${player.id}`],
      );
      expect(BigInt(wallet), `player ${player.id}`).toBe(
        BigInt(CREDIT_DOLLARS * 100) - ENTRY_FEE_CENTS * BigInt(played.length) + prizes,
      );
    }

    // ---- each player was told of each match and each end once -------------------------------
    const news = await rows<{ key: string }>(
      `select dedupe_key as key from notifications where dedupe_key like 'tournament-%'`,
    );
    const kinds = new Map<string, number>();
    for (const { key } of news) {
      const kind = key.split(':')[0] ?? '';
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    expect(Object.fromEntries(kinds)).toEqual({
      'tournament-cancelled': 12,
      'tournament-match': live.length * 3 * 2,
      'tournament-reported': live.length * 2 + reported.length,
      'tournament-time-limit': unplayed.length * 2,
      'tournament-finished': live.length * 4,
    });

    await annotate(
      `killed with ${startedAtKill}/${TOURNAMENTS} started, ` +
        `${advancedAtKill}/${firstRound.length} first-round results advanced, ` +
        `${paidAtKill}/${live.length} tournaments paid`,
    );
  }, 240_000);
});
