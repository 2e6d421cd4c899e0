import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '#shared/contracts/challenge-view.ts';
import { createAppContext, type AppContext } from '#server/context.ts';
import { queryRows } from '#server/db/client.ts';
import { MIGRATIONS_DIR } from '#server/db/migrate.ts';
import { challenges, type Challenge } from '#server/db/schema/challenges.ts';
import { fund } from '#tests/helpers/money.ts';
import {
  createTestApp,
  expectLedgerHealthy,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';
import { deleteUser } from '../../procedures/account-closing/delete-user.ts';
import { resolveDispute } from './decisions.ts';
import { signInAdmin } from '../admin/testing/admin-agent.ts';
import { EMPTY_RECORD, findPlayerRecords } from './records.ts';
import { confirmResult, runFairPlayPass } from './review.ts';
import {
  acceptChallenge,
  cancelChallenge,
  claimNoShow,
  createChallenge,
  declineChallenge,
  quickMatch,
} from './service.ts';
import { disputeResult, submitScores } from './results.ts';

/**
 * `player_records` is kept by a trigger on `challenges` (migration 0024). Here many histories run
 * through the service functions every route and worker calls, chosen at random from a fixed seed,
 * and after each step the table must equal the records added up from every challenge, as they
 * were read before the table existed. So must the migration's back-fill, run again at the end.
 */

const MINUTE_MS = 60_000;
let now = new Date('2031-06-01T12:00:00Z');
const clock = () => now;
let t: TestApp;
let ctx: AppContext;
let adminId: number;

beforeAll(async () => {
  // The players act through the service functions: no session has to outlive the clock.
  t = await createTestApp({ clock });
  ctx = createAppContext({ env: t.env, database: t.database, bus: t.bus, clock });
  ({ id: adminId } = await signInAdmin(t));
});
afterEach(async () => {
  await expectLedgerHealthy(t.database);
});
afterAll(async () => {
  await t.close();
});

interface RecordRow {
  player_id: number;
  played: number;
  won: number;
  lost: number;
  ties_lost: number;
  disputes_opened: number;
  disputes_lost: number;
  no_shows: number;
  cancelled: number;
}

/**
 * Every player's record added up from all their challenges: the query the records were read with
 * before `player_records` (decision 22), kept as the reference the trigger must agree with.
 */
async function referenceRecords(): Promise<Map<number, PlayerRecord>> {
  const rows = await queryRows<RecordRow>(
    t.database.db,
    sql`with played as (
        select c.creator_id as player_id, c.* from challenges c
        union all
        select c.acceptor_id as player_id, c.* from challenges c where c.acceptor_id is not null
      ),
      judged as (
        select p.player_id, p.status, p.winner_id, p.acceptor_id, p.no_show_claimed_by,
          p.creator_score = p.acceptor_score as level,
          p.status = 'completed' and p.release_cause = 'decided' as decided,
          case
            when p.no_show_claimed_by is not null then p.no_show_claimed_by
            when p.dispute_reason is null then null
            when p.review_ends_at is not null or exists (
                select 1 from ledger_transfers t where t.idempotency_key = 'settle:' || p.id)
              then case p.submitted_by
                when p.creator_id then p.acceptor_id
                when p.acceptor_id then p.creator_id
              end
            else p.submitted_by
          end as disputer
        from played p
      )
      select player_id,
        count(*) filter (where status = 'completed')::int as played,
        count(*) filter (where status = 'completed' and winner_id = player_id)::int as won,
        count(*) filter (where status = 'completed' and winner_id <> player_id)::int as lost,
        count(*) filter (
          where status = 'completed' and winner_id <> player_id and level)::int as ties_lost,
        count(*) filter (where disputer = player_id)::int as disputes_opened,
        count(*) filter (
          where decided and winner_id <> player_id and disputer is not null
            and (no_show_claimed_by is null or no_show_claimed_by = player_id))::int
          as disputes_lost,
        count(*) filter (
          where decided and no_show_claimed_by <> player_id
            and winner_id = no_show_claimed_by)::int as no_shows,
        count(*) filter (where status = 'cancelled' and acceptor_id is not null)::int
          as cancelled
      from judged
      group by player_id`,
  );
  const records = new Map<number, PlayerRecord>();
  for (const row of rows) {
    const record: PlayerRecord = {
      played: row.played,
      won: row.won,
      lost: row.lost,
      tiesLost: row.ties_lost,
      disputesOpened: row.disputes_opened,
      disputesLost: row.disputes_lost,
      noShows: row.no_shows,
      cancelled: row.cancelled,
    };
    // The table has no row for a player whose challenges never counted (open ones only).
    if (Object.values(record).some((count) => count !== 0)) records.set(row.player_id, record);
  }
  return records;
}

/** The table's records of every user, through the read the responses make. */
async function tableRecords(): Promise<Map<number, PlayerRecord>> {
  const users = await queryRows<{ id: number }>(t.database.db, sql`select id from users`);
  const records = await findPlayerRecords(
    t.database.db,
    users.map((user) => user.id),
  );
  // A row brought back to all zeros is the empty record, as no row is.
  for (const [id, record] of records) {
    if (Object.values(record).every((count) => count === 0)) records.delete(id);
  }
  return records;
}

async function expectRecordsKept(step: string) {
  expect(await tableRecords(), step).toEqual(await referenceRecords());
}

/** A small deterministic generator (mulberry32), so that a failure replays the same history. */
function randomFrom(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('nothing to pick from');
      return item;
    },
    score: () => Math.floor(next() * 4),
  };
}

const terms = {
  game: 'Tekken 8',
  amount: 5,
  gamerTag: 'Jin',
  phoneNumber: '5550107000',
  console: 'PlayStation',
};
const screenshot = 'https://example.com/result.png';

async function row(id: number): Promise<Challenge> {
  const [challenge] = await t.database.db.select().from(challenges).where(eq(challenges.id, id));
  if (!challenge) throw new Error(`challenge ${id} is gone`);
  return challenge;
}

describe('player_records', () => {
  it('equals the records added up from the challenges after every step of many histories', async () => {
    const random = randomFrom(2031);
    const players: { id: number; username: string }[] = [];
    for (let i = 0; i < 8; i += 1) {
      const { user } = await signUp(t.app);
      await fund(t.database, user.id, 1_000_000n);
      players.push({ id: user.id, username: user.username });
    }
    const active = () => players.filter((player) => !deleted.has(player.id));
    const deleted = new Set<number>();
    const pending: number[] = [];
    let steps = 0;

    /** One move on challenge `id`, chosen among those its state allows; false once it is over. */
    async function move(id: number): Promise<boolean> {
      const c = await row(id);
      const { creatorId, acceptorId } = c;
      const either = () => random.pick(acceptorId === null ? [creatorId] : [creatorId, acceptorId]);
      const other = (userId: number) => (userId === creatorId ? acceptorId : creatorId) ?? 0;
      const scores = () => ({ creatorScore: random.score(), acceptorScore: random.score() });
      switch (c.status) {
        case 'open': {
          // A direct challenge to an account deleted since waits for its creator to withdraw it.
          if (c.opponentId !== null && deleted.has(c.opponentId)) {
            await cancelChallenge(ctx, id, creatorId);
            return false;
          }
          if (c.opponentId !== null && random.chance(0.3)) {
            await declineChallenge(ctx, id, c.opponentId);
            return false;
          }
          if (random.chance(0.15)) {
            await cancelChallenge(ctx, id, creatorId);
            return false;
          }
          const acceptor =
            c.opponentId ?? random.pick(active().filter((p) => p.id !== creatorId)).id;
          await acceptChallenge(ctx, id, acceptor);
          return true;
        }
        case 'accepted': {
          const choice = random.pick([
            'report',
            'report',
            'report',
            'report with dispute',
            'no-show',
            'call off',
            'ask to call off',
            'expire',
            'legacy settlement',
          ]);
          const by = either();
          if (choice === 'report') {
            await submitScores(ctx, id, by, { ...scores(), screenshot });
          } else if (choice === 'report with dispute') {
            await submitScores(ctx, id, by, { ...scores(), screenshot, disputeReason: 'Lag' });
          } else if (choice === 'no-show') {
            now = new Date(now.getTime() + 31 * MINUTE_MS);
            await claimNoShow(ctx, id, by);
          } else if (choice === 'call off') {
            await cancelChallenge(ctx, id, by);
            await cancelChallenge(ctx, id, other(by));
          } else if (choice === 'ask to call off') {
            await cancelChallenge(ctx, id, by);
          } else if (choice === 'expire') {
            // Every accepted match out of time ends here, not only this one.
            now = new Date(now.getTime() + 25 * 60 * MINUTE_MS);
            await runFairPlayPass(ctx, 1_000);
          } else {
            // A result settled before reviews existed (migration 0009's call).
            const winner = random.pick([creatorId, other(creatorId)]);
            await queryRows(
              t.database.db,
              sql`select * from challenge_record_result(${id}::integer, 'completed',
                ${winner}::integer, ${winner === creatorId ? 2 : 0}::integer,
                ${winner === creatorId ? 0 : 2}::integer, ${screenshot}, null, null,
                ${by}::integer, 1000, 50, ${now.toISOString()}::timestamptz, '[]'::jsonb)`,
            );
          }
          return true;
        }
        case 'completed': {
          const under = c.reviewEndsAt !== null && c.releasedAt === null;
          const legacyOpen =
            c.reviewEndsAt === null &&
            c.releaseCause === null &&
            c.completedAt !== null &&
            now.getTime() - c.completedAt.getTime() < 23 * 60 * MINUTE_MS;
          if (!under && !legacyOpen) return false;
          const opponent = other(c.submittedBy ?? creatorId);
          const choice = random.pick(
            under
              ? ['confirm', 'agree or contest', 'dispute', 'review ends', 'leave']
              : ['dispute', 'leave'],
          );
          if (choice === 'confirm') await confirmResult(ctx, id, opponent);
          else if (choice === 'agree or contest')
            await submitScores(ctx, id, opponent, { ...scores(), screenshot });
          else if (choice === 'dispute') await disputeResult(ctx, id, opponent, 'Not my score');
          else if (choice === 'review ends') {
            now = new Date(now.getTime() + 25 * 60 * MINUTE_MS);
            await runFairPlayPass(ctx, 1_000);
          } else return false;
          return true;
        }
        case 'disputed': {
          if (random.chance(0.1)) return false;
          await resolveDispute(ctx, id, {
            adminId,
            outcome: random.pick(['creator', 'acceptor', 'refund'] as const),
            note: 'Checked the evidence',
          });
          return false;
        }
        case 'cancelled':
          return false;
      }
    }

    for (let round = 0; round < 60; round += 1) {
      const creator = random.pick(active());
      const kind = random.pick(['public', 'public', 'direct', 'quick']);
      if (kind === 'quick') {
        const { challengeId } = await quickMatch(ctx, creator.id, terms);
        pending.push(challengeId);
      } else {
        const opponent =
          kind === 'direct' ? random.pick(active().filter((p) => p.id !== creator.id)) : undefined;
        pending.push(
          await createChallenge(ctx, creator.id, {
            ...terms,
            ...(opponent ? { opponent: opponent.username } : {}),
          }),
        );
      }
      // Moves on the challenges still going, a few at a time, in an order of their own.
      for (let i = 0; i < 3 && pending.length > 0; i += 1) {
        const id = random.pick(pending);
        const going = await move(id);
        steps += 1;
        if (!going) pending.splice(pending.indexOf(id), 1);
        await expectRecordsKept(`step ${steps}: challenge ${id}`);
      }
      // Now and then an account is deleted: its open challenges are withdrawn, its accepted
      // matches go to the admins, disputed by nobody.
      if (round % 20 === 19) {
        const leaving = random.pick(active());
        await deleteUser(ctx, adminId, leaving.id, 'Asked to leave');
        deleted.add(leaving.id);
        await expectRecordsKept(`account ${leaving.id} deleted`);
      }
    }

    // The records are not empty: the history reached every kind of count.
    const reference = await referenceRecords();
    const totals = { ...EMPTY_RECORD };
    for (const record of reference.values()) {
      for (const key of Object.keys(totals) as (keyof PlayerRecord)[]) totals[key] += record[key];
    }
    for (const [key, total] of Object.entries(totals)) expect(total, key).toBeGreaterThan(0);

    // The migration's back-fill, its last statement, gives the same table from the challenges.
    const migration = readFileSync(join(MIGRATIONS_DIR, '0024_player_records.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').at(-1) ?? '';
    expect(backfill).toContain('INSERT INTO player_records');
    await t.database.db.execute(sql`delete from player_records`);
    await t.database.db.execute(sql.raw(backfill));
    await expectRecordsKept('after the back-fill');
  });
});
