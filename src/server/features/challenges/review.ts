import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge, type ReleaseCause } from '../../db/schema/challenges.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { formatUtc } from '../../lib/format-time.ts';
import { challengeEscrow, challengeReview, HOUSE_UNCLAIMED, userWallet } from '../ledger/index.ts';
import { notify } from '../notifications/index.ts';
import { maySee } from './match-rules.ts';
import { lockChallenge } from './repository.ts';
import { settle } from './settlement.ts';

const HOUR_MS = 3_600_000;

/** Until when a result reported now is held for the opponent's answer (docs/fair-play.md). */
export function reviewEndsAt(ctx: AppContext, reportedAt: Date): Date {
  return new Date(reportedAt.getTime() + ctx.env.RESULT_REVIEW_HOURS * HOUR_MS);
}

/** Whether a completed result's credit is still held: reported under review, not yet released. */
export function isUnderReview(challenge: Challenge): boolean {
  return (
    challenge.status === 'completed' &&
    challenge.reviewEndsAt !== null &&
    challenge.releasedAt === null
  );
}

/** The other player of a challenge. */
export function opponentOf(challenge: Challenge, userId: number): number | null {
  if (userId === challenge.creatorId) return challenge.acceptorId;
  if (userId === challenge.acceptorId) return challenge.creatorId;
  return null;
}

/**
 * Only the two players may act on a challenge. Whoever may not even see it (anyone but its two
 * players, for a direct challenge) is told it does not exist, as its page tells them, so that
 * acting on it reveals no more than reading it; anyone else, that only its players may.
 */
export function requireParticipant(
  challenge: Pick<Challenge, 'creatorId' | 'acceptorId' | 'opponentId'>,
  userId: number,
): void {
  if (!maySee(challenge, userId)) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
  if (userId !== challenge.creatorId && userId !== challenge.acceptorId) {
    throw new AppError('NOT_PARTICIPANT', CHALLENGE_MESSAGES.notParticipant);
  }
}

/**
 * A player's action on their match (confirm, dispute, no-show): the challenge locked for the
 * transaction, 404 when there is none, 403 for anyone but its two players.
 */
export function onPlayersChallenge<T>(
  ctx: AppContext,
  challengeId: number,
  userId: number,
  work: (uow: UnitOfWork, challenge: Challenge) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, async (uow) => {
    const challenge = await lockChallenge(uow.tx, challengeId);
    if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    requireParticipant(challenge, userId);
    return work(uow, challenge);
  });
}

type Announced = Pick<Challenge, 'id' | 'status' | 'creatorId' | 'acceptorId'> &
  Partial<Pick<Challenge, 'opponentId'>>;

/**
 * The event that tells the sockets showing this challenge that it changed
 * (docs/architecture.md#realtime).
 */
export function challengeEvent(challenge: Announced) {
  return {
    type: 'challenge' as const,
    challengeId: challenge.id,
    status: challenge.status,
    // Open public challenges are on everyone's Available tab; a direct one, and any challenge
    // once accepted, only its players see.
    audience:
      (challenge.status === 'open' || challenge.status === 'cancelled') && !challenge.opponentId
        ? ('all' as const)
        : [
            challenge.creatorId,
            ...(challenge.acceptorId ? [challenge.acceptorId] : []),
            ...(challenge.opponentId && challenge.opponentId !== challenge.acceptorId
              ? [challenge.opponentId]
              : []),
          ],
  };
}

/** Announces the change once the unit of work commits. */
export function announceChallenge(ctx: AppContext, uow: UnitOfWork, challenge: Announced): void {
  uow.afterCommit(() => ctx.bus.publish(challengeEvent(challenge)));
}

/**
 * Where money owed to a player goes: the wallet, or `house:unclaimed` once the account is
 * deleted (its wallet was swept there and must stay empty). A shared lock on the player keeps a
 * deletion from sweeping the wallet between this look and the credit.
 */
export async function payeeAccount(uow: UnitOfWork, userId: number): Promise<string> {
  const [player] = await uow.tx
    .select({ deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('share');
  return player?.deletedAt ? HOUSE_UNCLAIMED : userWallet(userId);
}

const RELEASE_NEWS: Record<ReleaseCause, string> = {
  confirmed: 'your opponent confirmed the result',
  agreed: 'your opponent reported the same result',
  review_ended: 'the review time ended without a dispute',
  decided: 'an admin decided the dispute',
};

/**
 * Moves a held credit from `review:challenge:{id}` to the winner, once: the challenge must be
 * locked by the caller and still under review, or nothing happens and false is returned. The
 * transfer's key `release:{id}` stands behind the row's guard.
 */
export async function releaseLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  challenge: Challenge,
  cause: ReleaseCause,
): Promise<boolean> {
  if (!isUnderReview(challenge) || challenge.winnerId === null) return false;
  const { winnerCreditCents } = settle(challenge.amountCents);
  await ctx.ledger.post(uow, {
    idempotencyKey: `release:${challenge.id}`,
    kind: 'review_release',
    reference: { type: 'challenge', id: challenge.id },
    entries: [
      {
        account: challengeReview(challenge.id),
        direction: 'debit',
        amountCents: winnerCreditCents,
      },
      {
        account: await payeeAccount(uow, challenge.winnerId),
        direction: 'credit',
        amountCents: winnerCreditCents,
      },
    ],
  });
  const now = ctx.clock();
  await uow.tx
    .update(challenges)
    .set({ releasedAt: now, releaseCause: cause, updatedAt: now })
    .where(eq(challenges.id, challenge.id));
  await notify(uow, ctx.bus, {
    userId: challenge.winnerId,
    kind: 'result_released',
    challengeId: challenge.id,
    title: `Challenge #${challenge.id}: ${formatCents(winnerCreditCents)} is yours`,
    body:
      `Your winnings of ${formatCents(winnerCreditCents)} from challenge #${challenge.id} ` +
      `(${challenge.game}) are now available: ${RELEASE_NEWS[cause]}.`,
    dedupeKey: `result-released:${challenge.id}`,
  });
  announceChallenge(ctx, uow, challenge);
  return true;
}

/**
 * The opponent of the player who reported stands behind the result: the credit is released now.
 * Confirming a result whose credit was already released (the review ran out a moment before)
 * changes nothing and is not an error: the result stands either way.
 */
export async function confirmResult(
  ctx: AppContext,
  challengeId: number,
  userId: number,
): Promise<void> {
  await onPlayersChallenge(ctx, challengeId, userId, async (uow, challenge) => {
    if (challenge.status === 'disputed')
      throw new AppError('CONFLICT', CHALLENGE_MESSAGES.confirmDisputed);
    if (challenge.status !== 'completed' || challenge.reviewEndsAt === null)
      throw new AppError('CONFLICT', CHALLENGE_MESSAGES.nothingToConfirm);
    if (challenge.submittedBy === userId)
      throw new AppError('FORBIDDEN', CHALLENGE_MESSAGES.confirmOwnReport);
    await releaseLocked(ctx, uow, challenge, 'confirmed');
  });
}

/** Challenges claimed by one worker pass at most; a full batch means more may be due. */
export const REVIEW_BATCH = 25;

/**
 * Releases one result whose review has ended, claimed with `SKIP LOCKED` so that instances
 * running this at once take different ones; the release commits with the claim. Returns whether
 * one was due.
 */
async function releaseOneDue(ctx: AppContext, now: Date): Promise<boolean> {
  return inTransaction(ctx.db, async (uow) => {
    const [due] = await uow.tx
      .select()
      .from(challenges)
      .where(
        and(
          eq(challenges.status, 'completed'),
          isNull(challenges.releasedAt),
          isNotNull(challenges.reviewEndsAt),
          lte(challenges.reviewEndsAt, now),
        ),
      )
      .orderBy(asc(challenges.reviewEndsAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return false;
    await releaseLocked(ctx, uow, due, 'review_ended');
    return true;
  });
}

/** Tells the opponent once that one hour of their review is left. */
async function remindOneEnding(ctx: AppContext, now: Date): Promise<boolean> {
  return inTransaction(ctx.db, async (uow) => {
    const [due] = await uow.tx
      .select()
      .from(challenges)
      .where(
        and(
          eq(challenges.status, 'completed'),
          isNull(challenges.releasedAt),
          isNull(challenges.reviewRemindedAt),
          isNotNull(challenges.reviewEndsAt),
          lte(challenges.reviewEndsAt, new Date(now.getTime() + HOUR_MS)),
        ),
      )
      .orderBy(asc(challenges.reviewEndsAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return false;
    await uow.tx.update(challenges).set({ reviewRemindedAt: now }).where(eq(challenges.id, due.id));
    const opponent = due.submittedBy === null ? null : opponentOf(due, due.submittedBy);
    if (opponent !== null && due.reviewEndsAt && due.reviewEndsAt > now) {
      await notify(uow, ctx.bus, {
        userId: opponent,
        kind: 'review_ending',
        challengeId: due.id,
        title: `Challenge #${due.id}: one hour left to dispute`,
        body:
          `The result reported on challenge #${due.id} (${due.game}) stands at ` +
          `${formatUtc(due.reviewEndsAt)} unless you confirm or dispute it before then.`,
        dedupeKey: `review-ending:${due.id}`,
      });
    }
    return true;
  });
}

/**
 * Refunds both stakes of one accepted match that has had no result and no claim for
 * `MATCH_TIME_LIMIT_HOURS`, claimed like the releases.
 */
async function expireOneMatch(ctx: AppContext, now: Date): Promise<boolean> {
  const acceptedBefore = new Date(now.getTime() - ctx.env.MATCH_TIME_LIMIT_HOURS * HOUR_MS);
  return inTransaction(ctx.db, async (uow) => {
    const [due] = await uow.tx
      .select()
      .from(challenges)
      .where(and(eq(challenges.status, 'accepted'), lte(challenges.acceptedAt, acceptedBefore)))
      .orderBy(asc(challenges.acceptedAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return false;
    await refundBothLocked(ctx, uow, due, 'expired');
    for (const playerId of [due.creatorId, due.acceptorId]) {
      if (playerId === null) continue;
      await notify(uow, ctx.bus, {
        userId: playerId,
        kind: 'match_expired',
        challengeId: due.id,
        title: `Challenge #${due.id} expired: your stake is back`,
        body:
          `No result was reported on challenge #${due.id} (${due.game}) within ` +
          `${ctx.env.MATCH_TIME_LIMIT_HOURS} hours of acceptance, so both stakes of ` +
          `${formatCents(due.amountCents)} were refunded.`,
        dedupeKey: `match-expired:${due.id}:${playerId}`,
      });
    }
    return true;
  });
}

/**
 * Withdraws an open challenge: its creator's stake comes back from the escrow and it is
 * cancelled. The caller holds the challenge's lock and has checked that it is open. The key is
 * the creator's own cancel's, so one refund per challenge, whoever asks.
 */
export async function withdrawOpenLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  challenge: Challenge,
  cause: 'creator' | 'suspended' | 'play_break' | 'declined' | 'money_locked',
  by: { actorUserId?: number; memo?: string } = {},
): Promise<void> {
  await ctx.ledger.post(uow, {
    idempotencyKey: `refund:cancel:${challenge.id}`,
    kind: 'refund',
    reference: { type: 'challenge', id: challenge.id },
    ...by,
    entries: [
      {
        account: challengeEscrow(challenge.id),
        direction: 'debit',
        amountCents: challenge.amountCents,
      },
      {
        account: userWallet(challenge.creatorId),
        direction: 'credit',
        amountCents: challenge.amountCents,
      },
    ],
  });
  await uow.tx
    .update(challenges)
    .set({ status: 'cancelled', cancelCause: cause, updatedAt: ctx.clock() })
    .where(eq(challenges.id, challenge.id));
  announceChallenge(ctx, uow, { ...challenge, status: 'cancelled' });
}

/**
 * Returns both stakes of an accepted match from its escrow and cancels it; the caller holds the
 * challenge's lock and has checked that it is accepted.
 */
export async function refundBothLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  challenge: Challenge,
  cause: 'mutual' | 'expired',
): Promise<void> {
  if (challenge.acceptorId === null) throw new Error('an accepted challenge has an acceptor');
  const creator = await payeeAccount(uow, challenge.creatorId);
  const acceptor = await payeeAccount(uow, challenge.acceptorId);
  const entries =
    creator === acceptor
      ? [
          {
            account: creator,
            direction: 'credit' as const,
            amountCents: challenge.amountCents * 2n,
          },
        ]
      : [
          { account: creator, direction: 'credit' as const, amountCents: challenge.amountCents },
          { account: acceptor, direction: 'credit' as const, amountCents: challenge.amountCents },
        ];
  await ctx.ledger.post(uow, {
    idempotencyKey: `refund:${cause}:${challenge.id}`,
    kind: 'refund',
    reference: { type: 'challenge', id: challenge.id },
    entries: [
      {
        account: challengeEscrow(challenge.id),
        direction: 'debit',
        amountCents: challenge.amountCents * 2n,
      },
      ...entries,
    ],
  });
  const now = ctx.clock();
  await uow.tx
    .update(challenges)
    .set({ status: 'cancelled', cancelCause: cause, updatedAt: now })
    .where(eq(challenges.id, challenge.id));
  announceChallenge(ctx, uow, { ...challenge, status: 'cancelled' });
}

export interface FairPlayPass {
  released: number;
  reminded: number;
  expired: number;
}

/**
 * One pass of the fair-play worker (every instance runs it): releases up to `batch` results
 * whose review has ended, reminds the opponents of reviews ending within the hour, and refunds
 * matches out of time. Each row is claimed and changed in its own transaction, so a crash
 * anywhere leaves every row either done or still due, and never done twice.
 */
export async function runFairPlayPass(
  ctx: AppContext,
  batch = REVIEW_BATCH,
): Promise<FairPlayPass> {
  const pass: FairPlayPass = { released: 0, reminded: 0, expired: 0 };
  const now = ctx.clock();
  while (pass.released < batch && (await releaseOneDue(ctx, now))) pass.released += 1;
  while (pass.reminded < batch && (await remindOneEnding(ctx, now))) pass.reminded += 1;
  while (pass.expired < batch && (await expireOneMatch(ctx, now))) pass.expired += 1;
  return pass;
}
