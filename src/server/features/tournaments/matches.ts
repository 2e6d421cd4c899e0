import { and, eq } from 'drizzle-orm';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { TOURNAMENT_MESSAGES } from '#shared/contracts/tournaments.ts';
import type { AppContext } from '../../context.ts';
import {
  tournamentMatches,
  type Tournament,
  type TournamentMatch,
} from '../../db/schema/tournaments.ts';
import { type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { formatUtc } from '../../lib/format-time.ts';
import { recordAudit } from '../audit/index.ts';
import {
  answerToReport,
  mayStillDispute,
  noShowAllowedAt,
  reportedScoresReason,
  winnerOf,
} from '../challenges/index.ts';
import { notify } from '../notifications/index.ts';
import { announce } from './entries.ts';
import { standLocked } from './bracket-progress.ts';
import { onTournament } from './service.ts';

/**
 * A player's actions on their tournament match, as on a challenge (docs/tournaments.md): report,
 * confirm, dispute, no-show, and an admin's decision of a dispute.
 */

/** A player's action on their match: 404 for another tournament's, 403 for anyone else. */
function onPlayersMatch<T>(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number | null,
  work: (uow: UnitOfWork, tournament: Tournament, match: TournamentMatch) => Promise<T>,
): Promise<T> {
  return onTournament(ctx, tournamentId, async (uow, tournament) => {
    const [match] = await uow.tx
      .select()
      .from(tournamentMatches)
      .where(
        and(eq(tournamentMatches.id, matchId), eq(tournamentMatches.tournamentId, tournamentId)),
      );
    if (!match) throw new AppError('NOT_FOUND', TOURNAMENT_MESSAGES.matchNotFound);
    if (userId !== null && userId !== match.playerAId && userId !== match.playerBId)
      throw new AppError('NOT_PARTICIPANT', TOURNAMENT_MESSAGES.notPlayer);
    if (tournament.status !== 'live' && userId !== null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.matchNotReady);
    return work(uow, tournament, match);
  });
}

function opponentIn(match: TournamentMatch, userId: number): number | null {
  if (userId === match.playerAId) return match.playerBId;
  if (userId === match.playerBId) return match.playerAId;
  return null;
}

async function disputeLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  tournament: Tournament,
  match: TournamentMatch,
  userId: number,
  reason: string,
): Promise<void> {
  await uow.tx
    .update(tournamentMatches)
    .set({ status: 'disputed', disputeReason: reason })
    .where(eq(tournamentMatches.id, match.id));
  if (match.reportedBy !== null) {
    await notify(uow, ctx.bus, {
      userId: match.reportedBy,
      kind: 'tournament_result',
      title: `Tournament #${tournament.id}: your result is disputed`,
      body:
        `Your opponent disputed the result of your round ${match.round} match in tournament ` +
        `#${tournament.id}: ${reason}. An admin will decide who goes on.`,
      dedupeKey: `tournament-disputed:${match.id}:${userId}`,
    });
  }
  announce(ctx, uow, tournament, tournament.status);
}

export interface MatchSubmission {
  creatorScore: number;
  acceptorScore: number;
  screenshot: string;
  notes?: string | undefined;
  disputeReason?: string | undefined;
}

/**
 * A player reports the scores of their match, as on a challenge (docs/fair-play.md,
 * docs/tournaments.md): the first player's score is the challenge's creator's, the second's the
 * acceptor's, and ties go to the second player. The result waits `TOURNAMENT_REVIEW_MINUTES` for
 * the opponent; the opponent's own report during the review agrees with it or disputes it.
 */
export async function submitMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
  submission: MatchSubmission,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    const { playerAId, playerBId } = match;
    if (playerAId === null || playerBId === null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.matchNotReady);
    const claimed = winnerOf(submission, { creatorId: playerAId, acceptorId: playerBId });
    const now = ctx.clock();
    if (match.status === 'reported' && match.reportedBy !== userId) {
      if (answerToReport(match.winnerId, claimed, submission.disputeReason) === 'agreed') {
        await standLocked(ctx, uow, tournament, match, claimed, 'agreed');
        return;
      }
      if (!mayStillDispute(match.reviewEndsAt, now))
        throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.disputeNotAllowed);
      await disputeLocked(
        ctx,
        uow,
        tournament,
        match,
        userId,
        submission.disputeReason ??
          reportedScoresReason(submission.creatorScore, submission.acceptorScore),
      );
      return;
    }
    if (match.status !== 'playing') {
      throw new AppError(
        'CONFLICT',
        match.status === 'waiting'
          ? TOURNAMENT_MESSAGES.matchNotReady
          : TOURNAMENT_MESSAGES.alreadyReported,
      );
    }
    const disputed = submission.disputeReason !== undefined;
    const reviewEndsAt = new Date(now.getTime() + ctx.env.TOURNAMENT_REVIEW_MINUTES * 60_000);
    await uow.tx
      .update(tournamentMatches)
      .set({
        status: disputed ? 'disputed' : 'reported',
        winnerId: claimed,
        scoreA: submission.creatorScore,
        scoreB: submission.acceptorScore,
        screenshotUrl: submission.screenshot,
        notes: submission.notes ?? null,
        disputeReason: submission.disputeReason ?? null,
        reportedBy: userId,
        reportedAt: now,
        reviewEndsAt: disputed ? null : reviewEndsAt,
      })
      .where(eq(tournamentMatches.id, match.id));
    const opponent = opponentIn(match, userId);
    if (!disputed && opponent !== null) {
      await notify(uow, ctx.bus, {
        userId: opponent,
        kind: 'tournament_result',
        title: `Tournament #${tournament.id}: a result was reported`,
        body:
          `Your opponent reported ${submission.creatorScore}–${submission.acceptorScore} on your ` +
          `round ${match.round} match in tournament #${tournament.id}. Confirm or dispute it ` +
          `before ${formatUtc(reviewEndsAt)}; after that it stands.`,
        dedupeKey: `tournament-reported:${match.id}`,
      });
    }
    announce(ctx, uow, tournament, tournament.status);
  });
}

/** The opponent stands behind the reported result: the winner goes on now. */
export async function confirmMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    if (match.status === 'disputed')
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.confirmDisputed);
    if (match.status !== 'reported' || match.winnerId === null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.nothingToConfirm);
    if (match.reportedBy === userId)
      throw new AppError('FORBIDDEN', TOURNAMENT_MESSAGES.confirmOwnReport);
    await standLocked(ctx, uow, tournament, match, match.winnerId, 'confirmed');
  });
}

/** The opponent contests the reported result while its review runs: an admin decides. */
export async function disputeMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
  reason: string,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    if (match.status !== 'reported' || !mayStillDispute(match.reviewEndsAt, ctx.clock()))
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.disputeNotAllowed);
    if (match.reportedBy === userId)
      throw new AppError('FORBIDDEN', TOURNAMENT_MESSAGES.disputeOwnReport);
    await disputeLocked(ctx, uow, tournament, match, userId, reason);
  });
}

/**
 * A player says the opponent never came, `NO_SHOW_MINUTES` after the match began: it goes to
 * the admins as a dispute with the reason No-show. The opponent is told by when to answer with
 * evidence: a claim left unanswered goes to the claimant at the match's time limit
 * (`matchDeadline`).
 */
export async function claimMatchNoShow(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  userId: number,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, userId, async (uow, tournament, match) => {
    if (match.status !== 'playing' || match.readyAt === null)
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.matchNotReady);
    const now = ctx.clock();
    if (now < noShowAllowedAt(match.readyAt, ctx.env.NO_SHOW_MINUTES))
      throw new AppError('CONFLICT', TOURNAMENT_MESSAGES.noShowTooEarly);
    await uow.tx
      .update(tournamentMatches)
      .set({
        status: 'disputed',
        disputeReason: CHALLENGE_MESSAGES.noShowReason,
        noShowClaimedBy: userId,
        reportedBy: userId,
        reportedAt: now,
      })
      .where(eq(tournamentMatches.id, match.id));
    const opponent = opponentIn(match, userId);
    const answerBy = matchDeadline(
      { status: 'disputed', readyAt: match.readyAt, noShowClaimedBy: userId, reportedAt: now },
      ctx.env,
    );
    if (opponent !== null && answerBy !== null) {
      await notify(uow, ctx.bus, {
        userId: opponent,
        kind: 'tournament_result',
        title: `Tournament #${tournament.id}: your opponent reported a no-show`,
        body:
          `Your opponent says you did not show up for your round ${match.round} match in ` +
          `tournament #${tournament.id}. Add your evidence on the tournament page before ` +
          `${formatUtc(answerBy)} and an admin will decide who goes on; without it, your ` +
          `opponent goes on then.`,
        dedupeKey: `tournament-no-show:${match.id}`,
      });
    }
    announce(ctx, uow, tournament, tournament.status);
  });
}

/** An admin decides a disputed match: the chosen player goes on. */
export async function resolveMatch(
  ctx: AppContext,
  tournamentId: number,
  matchId: number,
  adminId: number,
  winnerId: number,
): Promise<void> {
  await onPlayersMatch(ctx, tournamentId, matchId, null, async (uow, tournament, match) => {
    if (tournament.status !== 'live' || match.status !== 'disputed')
      throw new AppError('CHALLENGE_NOT_DISPUTED', TOURNAMENT_MESSAGES.notDisputed);
    if (winnerId !== match.playerAId && winnerId !== match.playerBId) {
      throw new AppError('VALIDATION_FAILED', TOURNAMENT_MESSAGES.winnerNotPlayer, {
        fields: { winnerId: TOURNAMENT_MESSAGES.winnerNotPlayer },
      });
    }
    await recordAudit(uow.tx, {
      actorUserId: adminId,
      action: 'tournament.resolve',
      target: { type: 'tournament', id: tournamentId },
      details: { matchId, winnerId, reportedWinnerId: match.winnerId },
    });
    for (const userId of [match.playerAId, match.playerBId]) {
      if (userId === null) continue;
      await notify(uow, ctx.bus, {
        userId,
        kind: 'tournament_result',
        title: `Tournament #${tournamentId}: the dispute was decided`,
        body:
          `An admin decided your round ${match.round} match in tournament #${tournamentId}: ` +
          `${userId === winnerId ? 'you go on to the next round' : 'your opponent goes on'}.`,
        dedupeKey: `tournament-decided:${match.id}:${userId}`,
      });
    }
    await standLocked(ctx, uow, tournament, match, winnerId, 'decided');
  });
}

/**
 * When the time limit decides a match (decision 0020): `TOURNAMENT_MATCH_MINUTES` after both its
 * players were known, and for a no-show claim never sooner than `NO_SHOW_MINUTES` after it, so
 * that the other player has time to answer it. Null for a match the time limit leaves alone.
 */
export function matchDeadline(
  match: Pick<TournamentMatch, 'status' | 'readyAt' | 'noShowClaimedBy' | 'reportedAt'>,
  env: Pick<AppContext['env'], 'TOURNAMENT_MATCH_MINUTES' | 'NO_SHOW_MINUTES'>,
): Date | null {
  if (match.readyAt === null) return null;
  const limit = match.readyAt.getTime() + env.TOURNAMENT_MATCH_MINUTES * 60_000;
  if (match.status === 'playing') return new Date(limit);
  if (match.status !== 'disputed' || match.noShowClaimedBy === null || match.reportedAt === null)
    return null;
  return new Date(Math.max(limit, match.reportedAt.getTime() + env.NO_SHOW_MINUTES * 60_000));
}
