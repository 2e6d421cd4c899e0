import { eq } from 'drizzle-orm';
import { CHALLENGE_MESSAGES, DISPUTE_WINDOW_MS } from '#shared/contracts/challenges.ts';
import { centsToDecimalString, dollars } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { inTransaction, retryingConflicts, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { listAuditEntries } from '../audit/audit-log.ts';
import { challengeEscrow, userWallet } from '../ledger/accounts.ts';
import { getUserBalanceCents } from '../ledger/balances.ts';
import type { Mail } from '../mail/outbox.ts';
import {
  acceptChallengeCall,
  createChallengeCall,
  findChallengeWithPlayers,
  lockChallenge,
  recordResultCall,
  type ChallengeOutcome,
  type Contact,
} from './repository.ts';
import { settle, winnerOf } from './settlement.ts';

export interface CreateChallengeInput {
  game: string;
  amount: number;
  gamerTag: string;
  phoneNumber: string;
  console: string;
  mode?: string | undefined;
  platform?: string | undefined;
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
}

type Announced = Pick<Challenge, 'id' | 'status' | 'creatorId' | 'acceptorId'>;

function challengeEvent(challenge: Announced) {
  return {
    type: 'challenge' as const,
    challengeId: challenge.id,
    status: challenge.status,
    // Open challenges are on everyone's Available tab; after that only the players see them.
    audience:
      challenge.status === 'open' || challenge.status === 'cancelled'
        ? ('all' as const)
        : [challenge.creatorId, ...(challenge.acceptorId ? [challenge.acceptorId] : [])],
  };
}

/** Tells the sockets that show this challenge that it changed, once it commits (DESIGN §6). */
function announce(ctx: AppContext, uow: UnitOfWork, challenge: Announced) {
  uow.afterCommit(() => ctx.bus.publish(challengeEvent(challenge)));
}

/** The same, for a change made in one call that has committed already. */
async function announceCommitted(ctx: AppContext, challenge: Announced): Promise<void> {
  await ctx.bus.publish(challengeEvent(challenge));
}

/**
 * Runs `attempt` on the challenge as it reads now. `attempt` checks the rules on what it read
 * and writes in one call guarded by what it relied on (`status = 'accepted'`, say); null means
 * the row changed between the read and the write, and the challenge is read and judged again.
 * A challenge's status only moves forward, so a second round either succeeds or refuses.
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
    throw new Error('the challenge kept changing under a guarded write');
  });
}

async function requireLocked(uow: UnitOfWork, challengeId: number): Promise<Challenge> {
  const challenge = await lockChallenge(uow.tx, challengeId);
  if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
  return challenge;
}

export async function createChallenge(
  ctx: AppContext,
  creatorId: number,
  input: CreateChallengeInput,
): Promise<number> {
  const call = createChallengeCall({
    creatorId,
    stakeCents: dollars(input.amount),
    game: input.game,
    gamerTag: input.gamerTag,
    phoneNumber: input.phoneNumber,
    console: input.console,
    mode: input.mode ?? null,
    platform: input.platform ?? null,
    now: ctx.clock(),
  });
  return retryingConflicts(async () => {
    // The row and the stake in one call: a refused stake leaves no challenge behind.
    const { outcome, transfer } = await ctx.ledger.postWith<ChallengeOutcome>(
      ctx.db,
      'stake',
      call,
    );
    if (!outcome?.changed || !transfer)
      throw new Error('a challenge was created without its stake');
    const id = outcome.challenge_id;
    await announceCommitted(ctx, { id, status: 'open', creatorId, acceptorId: null });
    return id;
  });
}

/**
 * Accepts and stakes in one call, guarded by the rules (open, not the acceptor's own); when the
 * guard refuses, the call answers the challenge as it is, and that says why.
 */
export async function acceptChallenge(
  ctx: AppContext,
  challengeId: number,
  acceptorId: number,
): Promise<void> {
  const call = acceptChallengeCall(challengeId, acceptorId, ctx.clock());
  await retryingConflicts(async () => {
    const { outcome } = await ctx.ledger.postWith<ChallengeOutcome>(ctx.db, 'stake', call);
    if (!outcome) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    if (!outcome.changed) {
      if (outcome.creator_id === acceptorId)
        throw new AppError('OWN_CHALLENGE', CHALLENGE_MESSAGES.ownChallenge);
      throw new AppError('CHALLENGE_NOT_OPEN', CHALLENGE_MESSAGES.notOpen);
    }
    await announceCommitted(ctx, {
      id: challengeId,
      status: 'accepted',
      creatorId: outcome.creator_id,
      acceptorId,
    });
  });
}

export async function cancelChallenge(
  ctx: AppContext,
  challengeId: number,
  userId: number,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const challenge = await requireLocked(uow, challengeId);
    if (challenge.creatorId !== userId)
      throw new AppError('FORBIDDEN', CHALLENGE_MESSAGES.onlyCreatorCancels);
    if (challenge.status !== 'open')
      throw new AppError('CHALLENGE_NOT_OPEN', CHALLENGE_MESSAGES.cannotCancel);
    await ctx.ledger.post(uow, {
      idempotencyKey: `refund:cancel:${challenge.id}`,
      kind: 'refund',
      reference: { type: 'challenge', id: challenge.id },
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
      .set({ status: 'cancelled', updatedAt: ctx.clock() })
      .where(eq(challenges.id, challenge.id));
    announce(ctx, uow, { ...challenge, status: 'cancelled' });
  });
}

function resultMails(
  challenge: Challenge,
  players: Contact[],
  winnerId: number,
  winnerCreditCents: bigint,
): Mail[] {
  return players.flatMap((player) =>
    player.email
      ? [
          {
            dedupeKey: `challenge-result:${challenge.id}:${player.id}`,
            recipient: player.email,
            subject: `Challenge #${challenge.id} (${challenge.game}): results are in`,
            body:
              player.id === winnerId
                ? `Congratulations ${player.username}, you won challenge #${challenge.id}. ` +
                  `$${centsToDecimalString(winnerCreditCents)} has been credited to your balance. ` +
                  'An admin reviews every result and its screenshot.'
                : `Hi ${player.username}, the results of challenge #${challenge.id} were submitted and your ` +
                  'opponent won. If the result is wrong you can dispute it within 24 hours from the challenge page.',
            metadata: { challengeId: challenge.id, userId: player.id },
          },
        ]
      : [],
  );
}

/**
 * Records the scores and, unless the submission disputes, pays the winner from the escrow:
 * prize − fee to the winner, the fee to the house (DESIGN §3). Scores, mail and money are one
 * call guarded by `status = 'accepted'`, and the `settle:{id}` idempotency key stands
 * behind it: a second settlement is impossible.
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
      if (submitterId !== creatorId && submitterId !== acceptorId) {
        throw new AppError('NOT_PARTICIPANT', CHALLENGE_MESSAGES.notParticipant);
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
      const { outcome, transfer } = await ctx.ledger.postWith<ChallengeOutcome>(
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
            now: ctx.clock(),
          },
          resultMails(challenge, players, winnerId, winnerCreditCents),
        ),
      );
      if (!outcome?.changed) return null;

      let winnerBalanceCents: bigint;
      if (status === 'disputed') {
        // A disputed submission moves no money: the stakes wait in escrow for an admin.
        winnerBalanceCents = await getUserBalanceCents(ctx.db, winnerId);
      } else {
        const after = transfer?.balancesAfter.get(userWallet(winnerId));
        if (after === undefined) throw new Error('settlement did not touch the winner’s wallet');
        winnerBalanceCents = after;
      }

      await announceCommitted(ctx, { ...challenge, status });
      return { status, winnerId, prizeCents, feeCents, winnerBalanceCents };
    },
  );
}

/** The other player contests a completed result within 24 hours (DESIGN §3); an admin decides. */
export async function disputeResult(
  ctx: AppContext,
  challengeId: number,
  userId: number,
  reason: string,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const challenge = await requireLocked(uow, challengeId);
    if (userId !== challenge.creatorId && userId !== challenge.acceptorId) {
      throw new AppError('NOT_PARTICIPANT', CHALLENGE_MESSAGES.notParticipant);
    }
    const now = ctx.clock();
    const withinWindow =
      challenge.completedAt !== null &&
      now.getTime() - challenge.completedAt.getTime() <= DISPUTE_WINDOW_MS;
    if (challenge.status !== 'completed' || !withinWindow) {
      throw new AppError('CONFLICT', CHALLENGE_MESSAGES.disputeNotAllowed);
    }
    if (challenge.submittedBy === userId)
      throw new AppError('FORBIDDEN', CHALLENGE_MESSAGES.disputeOwnSubmission);
    // A dispute brings a result before an admin; once one has decided, the decision is final.
    const decisions = await listAuditEntries(uow.tx, {
      limit: 1,
      action: 'dispute.resolve',
      targetType: 'challenge',
      targetId: String(challenge.id),
    });
    if (decisions.length > 0) throw new AppError('CONFLICT', CHALLENGE_MESSAGES.decidedByAdmin);
    await uow.tx
      .update(challenges)
      .set({ status: 'disputed', disputeReason: reason, updatedAt: now })
      .where(eq(challenges.id, challenge.id));
    announce(ctx, uow, { ...challenge, status: 'disputed' });
  });
}
