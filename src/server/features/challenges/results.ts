import { eq } from 'drizzle-orm';
import { CHALLENGE_MESSAGES, DISPUTE_WINDOW_MS } from '#shared/contracts/challenges.ts';
import { centsToDecimalString } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { formatUtc } from '../../lib/format-time.ts';
import { listAuditEntries } from '../audit/index.ts';
import { getUserBalances, totalCents } from '../ledger/index.ts';
import type { Mail } from '../mail/index.ts';
import {
  findChallengeWithPlayers,
  recordResultCall,
  type ChallengeOutcome,
  type Contact,
} from './repository.ts';
import {
  announceChallenge,
  isUnderReview,
  onPlayersChallenge,
  opponentOf,
  releaseLocked,
  requireParticipant,
  reviewEndsAt,
} from './review.ts';
import { answerToReport, mayStillDispute, reportedScoresReason } from './match-rules.ts';
import { settle, winnerOf } from './settlement.ts';
import { notify, publishNews } from '../notifications/index.ts';
import { announceCommitted, onCurrentState, requireLocked } from './guarded-writes.ts';

/**
 * A reported result and the other player's answer to it (docs/fair-play.md): the report holds the
 * winner's credit for review, the same winner from the other side confirms it, another disputes it.
 */

export interface ScoreSubmission {
  creatorScore: number;
  acceptorScore: number;
  screenshot: string;
  notes?: string | undefined;
  disputeReason?: string | undefined;
}

export interface SubmissionResult {
  status: 'completed' | 'disputed';
  winnerId: number;
  prizeCents: bigint;
  feeCents: bigint;
  winnerBalanceCents: bigint;
  /** Until when the winner's credit is held for the opponent; null when nothing is held. */
  reviewEndsAt: Date | null;
}

function resultMails(
  challenge: Challenge,
  players: Contact[],
  reporterId: number,
  winnerId: number,
  winnerCreditCents: bigint,
  reviewEnd: Date,
): Mail[] {
  const held =
    `$${centsToDecimalString(winnerCreditCents)} is held for review until ` +
    `${formatUtc(reviewEnd)}, then added to the winner's available balance.`;
  return players.flatMap((player) => {
    if (!player.email) return [];
    const won = player.id === winnerId;
    const reported = player.id === reporterId;
    const body = won
      ? `Congratulations ${player.username}, you won challenge #${challenge.id}. ${held} ` +
        (reported
          ? 'Your opponent can confirm or dispute the result until then.'
          : 'An admin reviews every result and its screenshot.')
      : `Hi ${player.username}, the results of challenge #${challenge.id} were submitted and your ` +
        `opponent won. ${held} If the result is wrong, dispute it from the challenge page before then.`;
    return [
      {
        dedupeKey: `challenge-result:${challenge.id}:${player.id}`,
        recipient: player.email,
        subject: `Challenge #${challenge.id} (${challenge.game}): results are in`,
        body,
        metadata: { challengeId: challenge.id, userId: player.id },
      },
    ];
  });
}

/**
 * Records the scores and, unless the submission disputes, moves the prize out of the escrow: the
 * winner's credit (prize − fee) into review, the fee to the house (docs/challenges.md#lifecycle,
 * docs/fair-play.md). Scores, mail and money are one call guarded by `status = 'accepted'`, and the
 * `settle:{id}` idempotency key stands behind it: a second settlement is impossible. When the
 * opponent of the reporter submits during the review, that is their answer: the same winner
 * confirms, another disputes.
 */
export async function submitScores(
  ctx: AppContext,
  challengeId: number,
  submitterId: number,
  submission: ScoreSubmission,
): Promise<SubmissionResult> {
  return onCurrentState(
    () => findChallengeWithPlayers(ctx.db, challengeId),
    async ({ challenge, creator, acceptor }) => {
      const { creatorId, acceptorId } = challenge;
      requireParticipant(challenge, submitterId);
      if (
        acceptorId !== null &&
        isUnderReview(challenge) &&
        challenge.submittedBy !== null &&
        challenge.submittedBy !== submitterId
      ) {
        return answerReport(ctx, challengeId, submitterId, submission);
      }
      if (challenge.status !== 'accepted' || acceptorId === null) {
        const message =
          challenge.status === 'completed' || challenge.status === 'disputed'
            ? CHALLENGE_MESSAGES.alreadySubmitted
            : CHALLENGE_MESSAGES.notAccepted;
        throw new AppError('CHALLENGE_NOT_ACCEPTED', message);
      }

      const winnerId = winnerOf(submission, { creatorId, acceptorId });
      const { prizeCents, feeCents, winnerCreditCents } = settle(challenge.amountCents);
      const status = submission.disputeReason === undefined ? 'completed' : 'disputed';
      const players = acceptor ? [creator, acceptor] : [creator];
      const now = ctx.clock();
      const endsAt = reviewEndsAt(ctx, now);
      const opponent = opponentOf(challenge, submitterId);
      const news =
        status === 'completed' && opponent !== null
          ? [
              {
                userId: opponent,
                kind: 'result_reported' as const,
                title: `Challenge #${challenge.id}: a result was reported`,
                body:
                  `Your opponent reported ${submission.creatorScore}–${submission.acceptorScore} ` +
                  `on challenge #${challenge.id} (${challenge.game}). Confirm or dispute it ` +
                  `before ${formatUtc(endsAt)}; after that it stands.`,
                dedupeKey: `result-reported:${challenge.id}`,
              },
            ]
          : [];
      const { outcome, transfer, published } = await ctx.ledger.postWith<ChallengeOutcome>(
        ctx.db,
        'settlement',
        recordResultCall(
          {
            challengeId: challenge.id,
            status,
            winnerId,
            creatorScore: submission.creatorScore,
            acceptorScore: submission.acceptorScore,
            screenshotUrl: submission.screenshot,
            notes: submission.notes ?? null,
            disputeReason: submission.disputeReason ?? null,
            submittedBy: submitterId,
            prizeCents,
            feeCents,
            now,
            reviewEndsAt: endsAt,
          },
          resultMails(challenge, players, submitterId, winnerId, winnerCreditCents, endsAt),
          news,
        ),
      );
      if (!outcome?.changed) return null;

      await Promise.all([
        published,
        publishNews(ctx.bus, outcome.news),
        announceCommitted(ctx, { ...challenge, status }),
      ]);
      // A completed result moved the winner's held credit, so the ledger read their balances.
      const winnerBalanceCents = totalCents(
        transfer?.userBalances.get(winnerId) ?? (await getUserBalances(ctx.db, winnerId)),
      );
      return {
        status,
        winnerId,
        prizeCents,
        feeCents,
        winnerBalanceCents,
        reviewEndsAt: status === 'completed' ? endsAt : null,
      };
    },
  );
}

/**
 * The opponent's own report on a result under review: the same winner confirms it (the credit
 * is released now), another winner disputes it, with their reason or their scores as the reason.
 */
async function answerReport(
  ctx: AppContext,
  challengeId: number,
  submitterId: number,
  submission: ScoreSubmission,
): Promise<SubmissionResult> {
  return inTransaction(ctx.db, async (uow) => {
    const challenge = await requireLocked(uow, challengeId);
    if (!isUnderReview(challenge) || challenge.acceptorId === null) {
      throw new AppError('CHALLENGE_NOT_ACCEPTED', CHALLENGE_MESSAGES.alreadySubmitted);
    }
    const { prizeCents, feeCents } = settle(challenge.amountCents);
    const claimed = winnerOf(submission, {
      creatorId: challenge.creatorId,
      acceptorId: challenge.acceptorId,
    });
    if (answerToReport(challenge.winnerId, claimed, submission.disputeReason) === 'agreed') {
      await releaseLocked(ctx, uow, challenge, 'agreed');
      const balance = await getUserBalances(uow.tx, claimed);
      return {
        status: 'completed' as const,
        winnerId: claimed,
        prizeCents,
        feeCents,
        winnerBalanceCents: totalCents(balance),
        reviewEndsAt: null,
      };
    }
    await disputeLocked(
      ctx,
      uow,
      challenge,
      submitterId,
      submission.disputeReason ??
        reportedScoresReason(submission.creatorScore, submission.acceptorScore),
    );
    const balance = await getUserBalances(uow.tx, claimed);
    return {
      status: 'disputed' as const,
      winnerId: claimed,
      prizeCents,
      feeCents,
      winnerBalanceCents: totalCents(balance),
      reviewEndsAt: null,
    };
  });
}

/**
 * The other player contests a completed result (docs/fair-play.md): while its credit is under
 * review, or, for a result settled before reviews existed, within 24 hours; an admin decides.
 */
export async function disputeResult(
  ctx: AppContext,
  challengeId: number,
  userId: number,
  reason: string,
): Promise<void> {
  await onPlayersChallenge(ctx, challengeId, userId, (uow, challenge) =>
    disputeLocked(ctx, uow, challenge, userId, reason),
  );
}

async function disputeLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  challenge: Challenge,
  userId: number,
  reason: string,
): Promise<void> {
  const now = ctx.clock();
  const open =
    challenge.reviewEndsAt === null
      ? challenge.completedAt !== null &&
        now.getTime() - challenge.completedAt.getTime() <= DISPUTE_WINDOW_MS
      : isUnderReview(challenge) && mayStillDispute(challenge.reviewEndsAt, now);
  // A dispute brings a result before an admin; once one has decided, the decision is final.
  const decisions = await listAuditEntries(uow.tx, {
    limit: 1,
    action: 'dispute.resolve',
    targetType: 'challenge',
    targetId: String(challenge.id),
  });
  if (decisions.length > 0) throw new AppError('CONFLICT', CHALLENGE_MESSAGES.decidedByAdmin);
  if (challenge.status !== 'completed' || !open) {
    throw new AppError('CONFLICT', CHALLENGE_MESSAGES.disputeNotAllowed);
  }
  if (challenge.submittedBy === userId)
    throw new AppError('FORBIDDEN', CHALLENGE_MESSAGES.disputeOwnSubmission);
  await uow.tx
    .update(challenges)
    .set({ status: 'disputed', disputeReason: reason, updatedAt: now })
    .where(eq(challenges.id, challenge.id));
  if (challenge.submittedBy !== null) {
    await notify(uow, ctx.bus, {
      userId: challenge.submittedBy,
      kind: 'result_disputed',
      challengeId: challenge.id,
      title: `Challenge #${challenge.id}: your result is disputed`,
      body:
        `Your opponent disputed the result of challenge #${challenge.id} (${challenge.game}): ` +
        `${reason}. The winnings stay held until an admin decides; add your evidence on the ` +
        'challenge page.',
      dedupeKey: `result-disputed:${challenge.id}`,
    });
  }
  announceChallenge(ctx, uow, { ...challenge, status: 'disputed' });
}
