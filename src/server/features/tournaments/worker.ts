import { and, asc, eq, inArray, isNotNull, lte, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import {
  tournamentMatchEvidence,
  tournamentMatches,
  tournaments,
  type Tournament,
  type TournamentMatch,
} from '../../db/schema/tournaments.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { users } from '../../db/schema/users.ts';
import { notify } from '../notifications/index.ts';
import type { FastifyBaseLogger } from 'fastify';
import { startPeriodicWorker } from '../../lib/periodic-worker.ts';
import { standLocked, startLocked } from './bracket-progress.ts';

/** Tournaments and results claimed by one worker pass at most; a full batch means more. */
export const TOURNAMENT_BATCH = 25;

/**
 * Claims one tournament whose start time has come with `SKIP LOCKED` and starts or cancels it
 * in the claim's transaction: instances running this at once take different ones, and a crash
 * leaves it either started or still due.
 */
async function startOneDue(ctx: AppContext, now: Date): Promise<boolean> {
  return inTransaction(ctx.db, async (uow) => {
    const [due] = await uow.tx
      .select()
      .from(tournaments)
      .where(and(eq(tournaments.status, 'open'), lte(tournaments.startsAt, now)))
      .orderBy(asc(tournaments.startsAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return false;
    await startLocked(ctx, uow, due);
    return true;
  });
}

/**
 * Claims one live tournament that has a match meeting `condition` (written over a match row
 * named by its argument), skipping those another worker holds, and reads those matches in
 * bracket order. Every change to a tournament's matches holds the tournament's lock, so what the
 * caller decides for them is decided once.
 */
async function claimLiveTournamentWith(
  uow: UnitOfWork,
  condition: (match: SQL) => SQL,
): Promise<{ tournament: Tournament; matches: TournamentMatch[] } | null> {
  const [tournament] = await uow.tx
    .select()
    .from(tournaments)
    .where(
      and(
        eq(tournaments.status, 'live'),
        sql`exists (select 1 from ${tournamentMatches} m
          where m.tournament_id = "tournaments"."id" and ${condition(sql.raw('m'))})`,
      ),
    )
    .limit(1)
    .for('update', { skipLocked: true });
  if (!tournament) return null;
  const matches = await uow.tx
    .select()
    .from(tournamentMatches)
    .where(
      and(
        eq(tournamentMatches.tournamentId, tournament.id),
        condition(sql.raw('"tournament_matches"')),
      ),
    )
    .orderBy(asc(tournamentMatches.round), asc(tournamentMatches.slot));
  return { tournament, matches };
}

/**
 * Claims one live tournament with a result whose review has ended, and lets each such result
 * stand: every change to a tournament's matches holds the tournament's lock, so the worker and
 * a player's confirm never both advance the same winner.
 */
async function standOneDue(ctx: AppContext, now: Date): Promise<boolean> {
  const reviewEnded = (m: SQL) =>
    sql`${m}.status = 'reported' and ${m}.review_ends_at <= ${now.toISOString()}::timestamptz`;
  return inTransaction(ctx.db, async (uow) => {
    const claimed = await claimLiveTournamentWith(uow, reviewEnded);
    if (!claimed) return false;
    const { tournament: due, matches: results } = claimed;
    for (const match of results) {
      if (match.winnerId !== null)
        await standLocked(ctx, uow, due, match, match.winnerId, 'review_ended');
    }
    return true;
  });
}

/**
 * What the time limit decides for a match it found (decision 0020): an unanswered no-show claim
 * goes to the claimant; a match nobody played or claimed goes to its first player, the higher
 * seed (the one drawn earlier from the recorded seed), unless that player's account is closed
 * and the other's is not.
 */
async function timeLimitOutcome(
  db: Executor,
  match: TournamentMatch,
): Promise<{ winnerId: number; cause: 'no_show' | 'time_limit' }> {
  const { playerAId, playerBId, noShowClaimedBy } = match;
  if (playerAId === null || playerBId === null)
    throw new Error(`match ${match.id} has no two players`);
  if (noShowClaimedBy !== null) return { winnerId: noShowClaimedBy, cause: 'no_show' };
  const closed = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [playerAId, playerBId]), isNotNull(users.deletedAt)));
  const closedIds = new Set(closed.map((row) => row.id));
  const winnerId = closedIds.has(playerAId) && !closedIds.has(playerBId) ? playerBId : playerAId;
  return { winnerId, cause: 'time_limit' };
}

const TIME_LIMIT_NEWS = {
  no_show: (won: boolean) =>
    won
      ? 'your opponent did not answer your no-show claim, so you go on'
      : 'you did not answer the no-show claim against you, so your opponent goes on',
  time_limit: (won: boolean) =>
    won
      ? 'nobody reported a result, so you go on'
      : 'nobody reported a result, so your opponent goes on',
} as const;

/**
 * Claims one live tournament with a match past its time limit (`TOURNAMENT_MATCH_MINUTES` after
 * both players were known) that nobody reported, and decides each such match by the time limit's
 * rule (`timeLimitOutcome`), telling both players. A disputed report, or a no-show claim the
 * other player answered, waits for an admin.
 */
async function decideOneUnplayed(ctx: AppContext, now: Date): Promise<boolean> {
  const readyBefore = new Date(now.getTime() - ctx.env.TOURNAMENT_MATCH_MINUTES * 60_000);
  const claimedBefore = new Date(now.getTime() - ctx.env.NO_SHOW_MINUTES * 60_000);
  // Unplayed, or claimed as a no-show that the other player has not answered with evidence
  // (`matchDeadline` in SQL).
  const unplayed = (m: SQL) => sql`${m}.ready_at <= ${readyBefore.toISOString()}::timestamptz
    and (${m}.status = 'playing' or (${m}.status = 'disputed' and ${m}.no_show_claimed_by is not null
      and ${m}.reported_at <= ${claimedBefore.toISOString()}::timestamptz
      and not exists (select 1 from ${tournamentMatchEvidence} e
        where e.match_id = ${m}.id and e.user_id <> ${m}.no_show_claimed_by)))`;
  return inTransaction(ctx.db, async (uow) => {
    const claimed = await claimLiveTournamentWith(uow, unplayed);
    if (!claimed) return false;
    const { tournament: due, matches } = claimed;
    for (const match of matches) {
      const outcome = await timeLimitOutcome(uow.tx, match);
      for (const userId of [match.playerAId, match.playerBId]) {
        if (userId === null) continue;
        await notify(uow, ctx.bus, {
          userId,
          kind: 'tournament_result',
          title: `Tournament #${due.id}: your round ${match.round} match ran out of time`,
          body:
            `Your round ${match.round} match in tournament #${due.id} was not played within ` +
            `${ctx.env.TOURNAMENT_MATCH_MINUTES} minutes: ` +
            `${TIME_LIMIT_NEWS[outcome.cause](userId === outcome.winnerId)}.`,
          dedupeKey: `tournament-time-limit:${match.id}:${userId}`,
        });
      }
      await standLocked(ctx, uow, due, match, outcome.winnerId, outcome.cause);
    }
    return true;
  });
}

export interface TournamentPass {
  started: number;
  stood: number;
  timedOut: number;
}

/**
 * One pass of the tournament worker: starts what is due, lets ended reviews stand, then decides
 * the matches past their time limit.
 */
export async function runTournamentPass(
  ctx: AppContext,
  batch = TOURNAMENT_BATCH,
): Promise<TournamentPass> {
  const pass: TournamentPass = { started: 0, stood: 0, timedOut: 0 };
  const now = ctx.clock();
  while (pass.started < batch && (await startOneDue(ctx, now))) pass.started += 1;
  while (pass.stood < batch && (await standOneDue(ctx, now))) pass.stood += 1;
  while (pass.timedOut < batch && (await decideOneUnplayed(ctx, now))) pass.timedOut += 1;
  return pass;
}

/**
 * How often each instance looks for tournaments to start, results to let stand and matches past
 * their time limit.
 */
export const TOURNAMENT_INTERVAL_MS = 5_000;

/**
 * The tournament worker of one instance (docs/tournaments.md): starts tournaments whose time has
 * come, lets results whose review ended stand and decides matches past their time limit. Every
 * instance runs it; each tournament is claimed with `SKIP LOCKED` and changed in the claim's
 * transaction, so none is started or advanced twice.
 */
export function startTournamentWorker(
  ctx: AppContext,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => Promise<void> {
  const { stop } = startPeriodicWorker({
    pass: async () => {
      const pass = await runTournamentPass(ctx, TOURNAMENT_BATCH);
      if (pass.started + pass.stood + pass.timedOut > 0)
        log.info(pass, 'tournaments: started, results stood, matches past their time limit');
      return Math.max(pass.started, pass.stood, pass.timedOut);
    },
    batch: TOURNAMENT_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'tournament worker failed'),
  });
  return stop;
}
