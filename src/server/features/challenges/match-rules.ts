import type { Challenge } from '../../db/schema/challenges.ts';

/**
 * The fair-play rules of a reported match (docs/fair-play.md), shared by challenges and tournament
 * matches (docs/tournaments.md, decision 0020): each keeps its own rows and money, and both judge a
 * report, an answer and a no-show claim here.
 */

/**
 * The opponent's own report on a result under review: naming the same winner without a
 * dispute reason agrees with it; anything else disputes it.
 */
export function answerToReport(
  reportedWinnerId: number | null,
  claimedWinnerId: number,
  disputeReason: string | undefined,
): 'agreed' | 'disputed' {
  return claimedWinnerId === reportedWinnerId && disputeReason === undefined
    ? 'agreed'
    : 'disputed';
}

/** The reason a disputing report carries when its player gave none: their scores. */
export function reportedScoresReason(scoreA: number, scoreB: number): string {
  return `The other player reported ${scoreA}–${scoreB}`;
}

/** A result under review may be disputed until its review ends, judged by the clock. */
export function mayStillDispute(reviewEndsAt: Date | null, now: Date): boolean {
  return reviewEndsAt !== null && now < reviewEndsAt;
}

/** From when a player may claim that the opponent of a match begun at `startedAt` never came. */
export function noShowAllowedAt(startedAt: Date, noShowMinutes: number): Date {
  return new Date(startedAt.getTime() + noShowMinutes * 60_000);
}

/** Whether a player may see a challenge at all: a direct one is its two players' only. */
export function maySee(
  challenge: Pick<Challenge, 'creatorId' | 'opponentId'>,
  userId: number,
): boolean {
  return (
    challenge.opponentId === null ||
    challenge.creatorId === userId ||
    challenge.opponentId === userId
  );
}
