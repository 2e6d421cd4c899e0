import { eq } from 'drizzle-orm';
import { CHALLENGE_MESSAGES, DISPUTE_WINDOW_MS } from '#shared/contracts/challenges.ts';
import { centsToDecimalString, dollars } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { listAuditEntries } from '../audit/audit-log.ts';
import { challengeEscrow, HOUSE_FEES, userWallet } from '../ledger/accounts.ts';
import { getUserBalanceCents } from '../ledger/balances.ts';
import { enqueueMail, type Mail } from '../mail/outbox.ts';
import { lockChallenge, lockChallengeWithPlayers, type Contact } from './repository.ts';
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

/** Tells the sockets that show this challenge that it changed (DESIGN §6). */
function announce(
  ctx: AppContext,
  uow: UnitOfWork,
  challenge: Pick<Challenge, 'id' | 'status' | 'creatorId' | 'acceptorId'>,
) {
  uow.afterCommit(() =>
    ctx.bus.publish({
      type: 'challenge',
      challengeId: challenge.id,
      status: challenge.status,
      // Open challenges are on everyone's Available tab; after that only the players see them.
      audience:
        challenge.status === 'open' || challenge.status === 'cancelled'
          ? 'all'
          : [challenge.creatorId, ...(challenge.acceptorId ? [challenge.acceptorId] : [])],
    }),
  );
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
  const stakeCents = dollars(input.amount);
  return inTransaction(ctx.db, async (uow) => {
    const now = ctx.clock();
    const [created] = await uow.tx
      .insert(challenges)
      .values({
        creatorId,
        amountCents: stakeCents,
        game: input.game,
        gamerTag: input.gamerTag,
        phoneNumber: input.phoneNumber,
        console: input.console,
        mode: input.mode ?? null,
        platform: input.platform ?? null,
        status: 'open',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no challenge');
    // The row and the stake commit together: a refused stake leaves no challenge behind.
    await ctx.ledger.post(uow, {
      idempotencyKey: `stake:creator:${created.id}`,
      kind: 'stake',
      reference: { type: 'challenge', id: created.id },
      entries: [
        { account: userWallet(creatorId), direction: 'debit', amountCents: stakeCents },
        { account: challengeEscrow(created.id), direction: 'credit', amountCents: stakeCents },
      ],
    });
    announce(ctx, uow, created);
    return created.id;
  });
}

export async function acceptChallenge(
  ctx: AppContext,
  challengeId: number,
  acceptorId: number,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const challenge = await requireLocked(uow, challengeId);
    if (challenge.creatorId === acceptorId)
      throw new AppError('OWN_CHALLENGE', CHALLENGE_MESSAGES.ownChallenge);
    if (challenge.status !== 'open')
      throw new AppError('CHALLENGE_NOT_OPEN', CHALLENGE_MESSAGES.notOpen);
    await ctx.ledger.post(uow, {
      idempotencyKey: `stake:acceptor:${challenge.id}`,
      kind: 'stake',
      reference: { type: 'challenge', id: challenge.id },
      entries: [
        { account: userWallet(acceptorId), direction: 'debit', amountCents: challenge.amountCents },
        {
          account: challengeEscrow(challenge.id),
          direction: 'credit',
          amountCents: challenge.amountCents,
        },
      ],
    });
    const now = ctx.clock();
    await uow.tx
      .update(challenges)
      .set({ status: 'accepted', acceptorId, acceptedAt: now, updatedAt: now })
      .where(eq(challenges.id, challenge.id));
    announce(ctx, uow, { ...challenge, status: 'accepted', acceptorId });
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
 * prize − fee to the winner, the fee to the house (DESIGN §3). The row lock and the
 * `settle:{id}` idempotency key each make a second settlement impossible.
 */
export async function submitScores(
  ctx: AppContext,
  challengeId: number,
  submitterId: number,
  submission: ScoreSubmission,
): Promise<SubmissionResult> {
  return inTransaction(ctx.db, async (uow) => {
    const locked = await lockChallengeWithPlayers(uow.tx, challengeId);
    if (!locked) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    const { challenge } = locked;
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
    const disputed = submission.disputeReason !== undefined;
    const now = ctx.clock();

    const status = disputed ? 'disputed' : 'completed';
    await uow.tx
      .update(challenges)
      .set({
        status,
        winnerId,
        creatorScore: submission.creatorScore,
        acceptorScore: submission.acceptorScore,
        screenshotUrl: submission.screenshot,
        notes: submission.notes ?? null,
        disputeReason: submission.disputeReason ?? null,
        submittedBy: submitterId,
        prizeCents,
        feeCents: disputed ? null : feeCents,
        completedAt: now,
        updatedAt: now,
      })
      .where(eq(challenges.id, challenge.id));

    const players = locked.acceptor ? [locked.creator, locked.acceptor] : [locked.creator];
    await enqueueMail(uow.tx, resultMails(challenge, players, winnerId, winnerCreditCents));
    // The money moves last: the settlement locks the house's fee account, which every
    // settlement shares, so it is held only for the ledger's own statements and the commit.
    let winnerBalanceCents: bigint;
    if (disputed) {
      // A disputed submission moves no money: the stakes wait in escrow for an admin.
      winnerBalanceCents = await getUserBalanceCents(uow.tx, winnerId);
    } else {
      const result = await ctx.ledger.post(uow, {
        idempotencyKey: `settle:${challenge.id}`,
        kind: 'settlement',
        reference: { type: 'challenge', id: challenge.id },
        entries: [
          { account: challengeEscrow(challenge.id), direction: 'debit', amountCents: prizeCents },
          { account: userWallet(winnerId), direction: 'credit', amountCents: winnerCreditCents },
          { account: HOUSE_FEES, direction: 'credit', amountCents: feeCents },
        ],
      });
      const after = result.balancesAfter.get(userWallet(winnerId));
      if (after === undefined) throw new Error('settlement did not touch the winner’s wallet');
      winnerBalanceCents = after;
    }

    announce(ctx, uow, { ...challenge, status });
    return { status, winnerId, prizeCents, feeCents, winnerBalanceCents };
  });
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
