import { eq } from 'drizzle-orm';
import { CHALLENGE_MESSAGES, DISPUTE_WINDOW_MS } from '#shared/contracts/challenges.ts';
import { centsToDecimalString, dollars, formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { inTransaction, retryingConflicts, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { formatUtc } from '../../lib/format-time.ts';
import { listAuditEntries } from '../audit/audit-log.ts';
import { getUserBalances, totalCents } from '../ledger/balances.ts';
import type { Mail } from '../mail/outbox.ts';
import {
  acceptChallengeCall,
  createChallengeCall,
  findChallenge,
  findChallengeWithPlayers,
  lockChallenge,
  quickMatchCall,
  recordResultCall,
  type ChallengeOutcome,
  type Contact,
} from './repository.ts';
import {
  announceChallenge,
  challengeEvent,
  isUnderReview,
  onPlayersChallenge,
  opponentOf,
  refundBothLocked,
  releaseLocked,
  requireParticipant,
  reviewEndsAt,
  withdrawOpenLocked,
} from './review.ts';
import {
  answerToReport,
  mayStillDispute,
  maySee,
  noShowAllowedAt,
  reportedScoresReason,
} from './match-rules.ts';
import { settle, winnerOf } from './settlement.ts';
import { notify, publishNews } from '../notifications/notify.ts';
import {
  findChallengeableUser,
  requireCashPlayAllowed,
  type StandingColumns,
} from '../users/suspension.ts';

export interface CreateChallengeInput {
  game: string;
  amount: number;
  gamerTag: string;
  phoneNumber: string;
  console: string;
  mode?: string | undefined;
  platform?: string | undefined;
  /** A direct challenge's opponent, by username (DESIGN §12). */
  opponent?: string | undefined;
}

export interface QuickMatchInput {
  game: string;
  amount: number;
  console: string;
  gamerTag: string;
  phoneNumber: string;
}

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

type Announced = Pick<Challenge, 'id' | 'status' | 'creatorId' | 'acceptorId'> &
  Partial<Pick<Challenge, 'opponentId'>>;

/** Announces a change made in one call that has committed already (DESIGN §6). */
async function announceCommitted(ctx: AppContext, challenge: Announced): Promise<void> {
  await ctx.bus.publish(challengeEvent(challenge));
}

/**
 * Runs `attempt` on the challenge (or the player's suspension) as it reads now. `attempt` checks
 * the rules on what it read and writes in one call guarded by what it relied on (`status =
 * 'accepted'`, say); null means the row changed between the read and the write, and it is read
 * and judged again. A challenge's status only moves forward, and a suspension changes only by an
 * admin's hand, so a second round either succeeds or refuses.
 */
async function onCurrentState<T, R>(
  read: () => Promise<R | undefined>,
  attempt: (current: R) => Promise<T | null>,
): Promise<T> {
  return retryingConflicts(async () => {
    for (let round = 1; round <= 3; round += 1) {
      const current = await read();
      if (current === undefined) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
      const result = await attempt(current);
      if (result !== null) return result;
    }
    throw new Error('a row kept changing under a guarded write');
  });
}

async function requireLocked(uow: UnitOfWork, challengeId: number): Promise<Challenge> {
  const challenge = await lockChallenge(uow.tx, challengeId);
  if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
  return challenge;
}

/**
 * The player's standing for each round of `onCurrentState`: `justRead` (what the route read with
 * the player's state, moments ago) in the first, read afresh in any later one.
 */
function standingRounds(
  ctx: AppContext,
  playerId: number,
  justRead: StandingColumns | undefined,
): () => Promise<StandingColumns> {
  let first = justRead;
  return () => {
    const given = first;
    first = undefined;
    return requireCashPlayAllowed(ctx.db, playerId, ctx.clock(), given);
  };
}

/**
 * Opens a challenge with the creator's stake in its escrow, unless the creator is suspended
 * (DESIGN §10): the suspension is read afresh (or was, by the route: `standing`), and the
 * creation is guarded by what was read.
 */
export async function createChallenge(
  ctx: AppContext,
  creatorId: number,
  input: CreateChallengeInput,
  standing?: StandingColumns,
): Promise<number> {
  const opponentId =
    input.opponent === undefined ? null : await requireOpponent(ctx, creatorId, input.opponent);
  return onCurrentState(standingRounds(ctx, creatorId, standing), async (seen) => {
    const call = createChallengeCall(
      {
        creatorId,
        stakeCents: dollars(input.amount),
        game: input.game,
        gamerTag: input.gamerTag,
        phoneNumber: input.phoneNumber,
        console: input.console,
        mode: input.mode ?? null,
        platform: input.platform ?? null,
        opponentId,
        now: ctx.clock(),
      },
      seen,
    );
    // The row and the stake in one call: a refused stake leaves no challenge behind.
    const { outcome, transfer, published } = await ctx.ledger.postWith<ChallengeOutcome>(
      ctx.db,
      'stake',
      call,
    );
    // No row: the creator's suspension changed since it was read, and is judged again.
    if (!outcome) return null;
    if (!outcome.changed || !transfer) throw new Error('a challenge was created without its stake');
    const id = outcome.challenge_id;
    // Published together, so that they leave in one message (`PostedWith.published`).
    await Promise.all([
      published,
      publishNews(ctx.bus, outcome.news),
      announceCommitted(ctx, { id, status: 'open', creatorId, acceptorId: null, opponentId }),
    ]);
    return id;
  });
}

/**
 * The player a direct challenge goes to: an active account other than the creator's, able to
 * play for money now. One message answers for names that are unknown, deleted, suspended or on
 * a break, so that the form tells nobody which of these a name is.
 */
async function requireOpponent(ctx: AppContext, creatorId: number, username: string) {
  const opponent = await findChallengeableUser(ctx.db, username, ctx.clock());
  if (opponent === creatorId) throw invalidOpponent(CHALLENGE_MESSAGES.opponentSelf);
  if (opponent === null) throw invalidOpponent(CHALLENGE_MESSAGES.opponentUnknown);
  return opponent;
}

const invalidOpponent = (message: string) =>
  new AppError('VALIDATION_FAILED', message, { fields: { opponent: message } });

/**
 * Accepts and stakes in one call, guarded by the rules (open, not the acceptor's own, a direct
 * challenge by its opponent only); when the guard refuses, the call answers the challenge as it
 * is, and that says why.
 */
export async function acceptChallenge(
  ctx: AppContext,
  challengeId: number,
  acceptorId: number,
  standing?: StandingColumns,
): Promise<void> {
  // Unguarded, unlike a creation: an acceptance that commits just after a suspension is one that
  // could have committed just before it, and a suspension leaves accepted matches to be played.
  await requireCashPlayAllowed(ctx.db, acceptorId, ctx.clock(), standing);
  const call = acceptChallengeCall(challengeId, acceptorId, ctx.clock());
  await retryingConflicts(async () => {
    const { outcome, published } = await ctx.ledger.postWith<ChallengeOutcome>(
      ctx.db,
      'stake',
      call,
    );
    if (!outcome) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    if (!outcome.changed) {
      if (outcome.creator_id === acceptorId)
        throw new AppError('OWN_CHALLENGE', CHALLENGE_MESSAGES.ownChallenge);
      const challenge = await findChallenge(ctx.db, challengeId);
      // Someone else's direct challenge is not there for this player at all.
      if (challenge && !maySee(challenge, acceptorId))
        throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
      throw new AppError('CHALLENGE_NOT_OPEN', CHALLENGE_MESSAGES.notOpen);
    }
    await Promise.all([
      published,
      publishNews(ctx.bus, outcome.news),
      announceCommitted(ctx, {
        id: challengeId,
        status: 'accepted',
        creatorId: outcome.creator_id,
        acceptorId,
      }),
    ]);
  });
}

/**
 * The opponent of a direct challenge turns it down (DESIGN §12): the creator's stake comes back,
 * the challenge is cancelled, and the creator is told.
 */
export async function declineChallenge(
  ctx: AppContext,
  challengeId: number,
  userId: number,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const challenge = await requireLocked(uow, challengeId);
    if (!maySee(challenge, userId)) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    if (challenge.opponentId !== userId)
      throw new AppError('FORBIDDEN', CHALLENGE_MESSAGES.onlyOpponentDeclines);
    if (challenge.status !== 'open')
      throw new AppError('CHALLENGE_NOT_OPEN', CHALLENGE_MESSAGES.notOpen);
    await withdrawOpenLocked(ctx, uow, challenge, 'declined');
    await notify(uow, ctx.bus, {
      userId: challenge.creatorId,
      kind: 'challenge_declined',
      challengeId: challenge.id,
      title: `Challenge #${challenge.id} was declined: your stake is back`,
      body:
        `Your direct challenge #${challenge.id} (${challenge.game}) was declined; ` +
        `your stake of ${formatCents(challenge.amountCents)} was refunded.`,
      dedupeKey: `challenge-declined:${challenge.id}`,
    });
  });
}

/**
 * Quick match (DESIGN §12): the oldest open public challenge of another player on the same
 * terms is accepted, or a challenge is opened for the next player who asks. Answers the
 * challenge's id and whether it met an opponent.
 */
export async function quickMatch(
  ctx: AppContext,
  playerId: number,
  input: QuickMatchInput,
  standing?: StandingColumns,
): Promise<{ challengeId: number; matched: boolean }> {
  return onCurrentState(standingRounds(ctx, playerId, standing), async (seen) => {
    const call = quickMatchCall(
      {
        playerId,
        stakeCents: dollars(input.amount),
        game: input.game,
        gamerTag: input.gamerTag,
        phoneNumber: input.phoneNumber,
        console: input.console,
        now: ctx.clock(),
      },
      seen,
    );
    const { outcome, published } = await ctx.ledger.postWith<ChallengeOutcome>(
      ctx.db,
      'stake',
      call,
    );
    // No row: the player's suspension or break changed since it was read.
    if (!outcome) return null;
    const id = outcome.challenge_id;
    const matched = outcome.challenge_status === 'accepted';
    await Promise.all([
      published,
      publishNews(ctx.bus, outcome.news),
      outcome.changed &&
        announceCommitted(ctx, {
          id,
          status: outcome.challenge_status,
          creatorId: outcome.creator_id,
          acceptorId: matched ? playerId : null,
        }),
    ]);
    return { challengeId: id, matched };
  });
}

/**
 * The creator withdraws an open challenge (its stake comes back), or a player of an accepted
 * match asks to call it off (DESIGN §10): once both have asked, both stakes are refunded.
 */
export async function cancelChallenge(
  ctx: AppContext,
  challengeId: number,
  userId: number,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const challenge = await requireLocked(uow, challengeId);
    if (!maySee(challenge, userId)) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    if (challenge.status === 'accepted') {
      await requestMutualCancel(ctx, uow, challenge, userId);
      return;
    }
    if (challenge.creatorId !== userId)
      throw new AppError('FORBIDDEN', CHALLENGE_MESSAGES.onlyCreatorCancels);
    if (challenge.status !== 'open')
      throw new AppError('CHALLENGE_NOT_OPEN', CHALLENGE_MESSAGES.cannotCancel);
    await withdrawOpenLocked(ctx, uow, challenge, 'creator');
  });
}

async function requestMutualCancel(
  ctx: AppContext,
  uow: UnitOfWork,
  challenge: Challenge,
  userId: number,
): Promise<void> {
  requireParticipant(challenge, userId);
  const isCreator = userId === challenge.creatorId;
  const mine = isCreator ? challenge.creatorCancelRequestedAt : challenge.acceptorCancelRequestedAt;
  const theirs = isCreator
    ? challenge.acceptorCancelRequestedAt
    : challenge.creatorCancelRequestedAt;
  if (mine !== null) throw new AppError('CONFLICT', CHALLENGE_MESSAGES.cancelRequested);
  const opponent = opponentOf(challenge, userId);
  if (theirs !== null) {
    await refundBothLocked(ctx, uow, challenge, 'mutual');
    for (const playerId of [challenge.creatorId, challenge.acceptorId]) {
      if (playerId === null) continue;
      await notify(uow, ctx.bus, {
        userId: playerId,
        kind: 'match_cancelled',
        challengeId: challenge.id,
        title: `Challenge #${challenge.id} called off: your stake is back`,
        body:
          `Both players agreed to call off challenge #${challenge.id} (${challenge.game}); ` +
          `each stake of ${formatCents(challenge.amountCents)} was refunded.`,
        dedupeKey: `match-cancelled:${challenge.id}:${playerId}`,
      });
    }
    return;
  }
  const now = ctx.clock();
  await uow.tx
    .update(challenges)
    .set(
      isCreator
        ? { creatorCancelRequestedAt: now, updatedAt: now }
        : { acceptorCancelRequestedAt: now, updatedAt: now },
    )
    .where(eq(challenges.id, challenge.id));
  if (opponent !== null) {
    await notify(uow, ctx.bus, {
      userId: opponent,
      kind: 'cancel_requested',
      challengeId: challenge.id,
      title: `Challenge #${challenge.id}: your opponent asks to call it off`,
      body:
        `Your opponent asked to call off challenge #${challenge.id} (${challenge.game}). ` +
        'Ask to cancel too and both stakes are refunded; otherwise play and report the result.',
      dedupeKey: `cancel-requested:${challenge.id}:${userId}`,
    });
  }
  announceChallenge(ctx, uow, challenge);
}

/**
 * A player of an accepted match says the opponent never showed, once `NO_SHOW_MINUTES` have
 * passed since acceptance: the match goes to the admins as a dispute with the reason No-show,
 * its stakes still in escrow; both players may add evidence.
 */
export async function claimNoShow(
  ctx: AppContext,
  challengeId: number,
  userId: number,
): Promise<void> {
  await onPlayersChallenge(ctx, challengeId, userId, async (uow, challenge) => {
    if (challenge.status !== 'accepted' || challenge.acceptedAt === null)
      throw new AppError('CHALLENGE_NOT_ACCEPTED', CHALLENGE_MESSAGES.noShowNotAccepted);
    const now = ctx.clock();
    if (now < noShowAllowedAt(challenge.acceptedAt, ctx.env.NO_SHOW_MINUTES))
      throw new AppError('CONFLICT', CHALLENGE_MESSAGES.noShowTooEarly);
    await uow.tx
      .update(challenges)
      .set({
        status: 'disputed',
        disputeReason: CHALLENGE_MESSAGES.noShowReason,
        noShowClaimedBy: userId,
        submittedBy: userId,
        completedAt: now,
        updatedAt: now,
      })
      .where(eq(challenges.id, challenge.id));
    const opponent = opponentOf(challenge, userId);
    if (opponent !== null) {
      await notify(uow, ctx.bus, {
        userId: opponent,
        kind: 'no_show_claimed',
        challengeId: challenge.id,
        title: `Challenge #${challenge.id}: your opponent reported a no-show`,
        body:
          `Your opponent says you did not show up for challenge #${challenge.id} ` +
          `(${challenge.game}). An admin will decide; add your evidence on the challenge page.`,
        dedupeKey: `no-show:${challenge.id}`,
      });
    }
    announceChallenge(ctx, uow, { ...challenge, status: 'disputed' });
  });
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
 * winner's credit (prize − fee) into review, the fee to the house (DESIGN §3, §10). Scores, mail
 * and money are one call guarded by `status = 'accepted'`, and the `settle:{id}` idempotency key
 * stands behind it: a second settlement is impossible. When the opponent of the reporter submits
 * during the review, that is their answer: the same winner confirms, another disputes.
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
 * The other player contests a completed result (DESIGN §10): while its credit is under review,
 * or, for a result settled before reviews existed, within 24 hours; an admin decides.
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
