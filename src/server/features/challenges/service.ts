import { eq } from 'drizzle-orm';
import { DEVICE_LINK_MESSAGES } from '#shared/contracts/account-security.ts';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { dollars, formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { inTransaction, retryingConflicts, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import {
  acceptChallengeCall,
  createChallengeCall,
  findChallenge,
  quickMatchCall,
  type ChallengeOutcome,
} from './repository.ts';
import {
  announceChallenge,
  onPlayersChallenge,
  opponentOf,
  refundBothLocked,
  requireParticipant,
  withdrawOpenLocked,
} from './review.ts';
import { maySee, noShowAllowedAt } from './match-rules.ts';
import { notify, publishNews } from '../notifications/index.ts';
import {
  findChallengeableUser,
  linkedAccountsOf,
  requireCashPlayAllowed,
  requireNotLinked,
  type StandingColumns,
} from '../accounts/index.ts';
import {
  announceCommitted,
  onCurrentState,
  requireLocked,
  standingRounds,
} from './guarded-writes.ts';

export interface CreateChallengeInput {
  game: string;
  amount: number;
  gamerTag: string;
  phoneNumber: string;
  console: string;
  mode?: string | undefined;
  platform?: string | undefined;
  /** A direct challenge's opponent, by username (docs/challenges.md#finding-an-opponent). */
  opponent?: string | undefined;
}

export interface QuickMatchInput {
  game: string;
  amount: number;
  console: string;
  gamerTag: string;
  phoneNumber: string;
}

/**
 * Opens a challenge with the creator's stake in its escrow, unless the creator is suspended
 * (docs/fair-play.md): the suspension is read afresh (or was, by the route: `standing`), and the
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
  await requireNotLinked(ctx.db, creatorId, opponent, ctx.env.RISK_WINDOW_DAYS, ctx.clock());
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
  await requireNotLinkedToCreator(ctx, challengeId, acceptorId);
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
 * Refuses an acceptance by an account that shares a device with the challenge's creator
 * (docs/accounts.md#devices). Most players are linked to nobody, and then nothing more is read.
 */
async function requireNotLinkedToCreator(
  ctx: AppContext,
  challengeId: number,
  acceptorId: number,
): Promise<void> {
  const linked = await linkedAccountsOf(ctx.db, acceptorId, ctx.env.RISK_WINDOW_DAYS, ctx.clock());
  if (linked.length === 0) return;
  const challenge = await findChallenge(ctx.db, challengeId);
  if (challenge && maySee(challenge, acceptorId) && linked.includes(challenge.creatorId)) {
    throw new AppError('LINKED_ACCOUNTS', DEVICE_LINK_MESSAGES.linkedAccounts);
  }
}

/**
 * The opponent of a direct challenge turns it down (docs/challenges.md#finding-an-opponent): the
 * creator's stake comes back, the challenge is cancelled, and the creator is told.
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
 * Quick match (docs/challenges.md#finding-an-opponent): the oldest open public challenge of another
 * player on the same terms is accepted, or a challenge is opened for the next player who asks.
 * Answers the challenge's id and whether it met an opponent.
 */
export async function quickMatch(
  ctx: AppContext,
  playerId: number,
  input: QuickMatchInput,
  standing?: StandingColumns,
): Promise<{ challengeId: number; matched: boolean }> {
  // A linked account's challenge is passed over: the player takes another, or opens one.
  const passedOver = await linkedAccountsOf(
    ctx.db,
    playerId,
    ctx.env.RISK_WINDOW_DAYS,
    ctx.clock(),
  );
  return onCurrentState(standingRounds(ctx, playerId, standing), async (seen) => {
    const call = quickMatchCall(
      {
        playerId,
        passedOver,
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
 * match asks to call it off (docs/fair-play.md): once both have asked, both stakes are refunded.
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
