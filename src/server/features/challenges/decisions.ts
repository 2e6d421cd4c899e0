import { eq, inArray } from 'drizzle-orm';
import { ADMIN_MESSAGES, type DisputeOutcome } from '#shared/contracts/admin.ts';
import { CHALLENGE_MESSAGES } from '#shared/contracts/challenges.ts';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { challenges, type Challenge } from '../../db/schema/challenges.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/index.ts';
import { lockChallenge } from './repository.ts';
import { settle } from './settlement.ts';
import {
  challengeEscrow,
  challengeReview,
  findUnreversedSettlement,
  HOUSE_FEES,
  HOUSE_UNCLAIMED,
  userWallet,
  type Entry,
  type PostedTransfer,
  type TransferResult,
} from '../ledger/index.ts';
import { enqueueMail, type Mail } from '../mail/index.ts';
import { notify } from '../notifications/index.ts';
import { lockUser } from '../accounts/index.ts';

export interface Resolution {
  adminId: number;
  outcome: DisputeOutcome;
  note: string;
}

/** The wallet a settlement credited: its winner. */
function paidWinnerOf(settlement: PostedTransfer): number | null {
  for (const posting of settlement.postings) {
    const match = /^user:(\d+)$/.exec(posting.account);
    if (match?.[1] && posting.amountCents > 0n) return Number(match[1]);
  }
  return null;
}

/**
 * Where money owed to a player goes: their wallet, or `house:unclaimed` once their account is
 * deleted (its wallet was swept there and must stay empty).
 */
type PayeeAccount = (userId: number) => string;

/** The mirror image of a transfer: every posting undone (a deleted winner's via unclaimed). */
function reversalEntries(transfer: PostedTransfer, payee: PayeeAccount): Entry[] {
  return transfer.postings.map((posting) => {
    const wallet = /^user:(\d+)$/.exec(posting.account);
    return {
      account: wallet?.[1] ? payee(Number(wallet[1])) : posting.account,
      direction: posting.amountCents > 0n ? 'debit' : 'credit',
      amountCents: posting.amountCents > 0n ? posting.amountCents : -posting.amountCents,
    };
  });
}

/** Adds up entries that land on one account (two deleted players both refunded to unclaimed). */
function mergeEntries(entries: Entry[]): Entry[] {
  const merged = new Map<string, Entry>();
  for (const entry of entries) {
    const key = `${entry.direction}:${entry.account}`;
    const existing = merged.get(key);
    merged.set(
      key,
      existing ? { ...entry, amountCents: existing.amountCents + entry.amountCents } : entry,
    );
  }
  return [...merged.values()];
}

/** One mail per player and decision: a later decision on the same challenge is news again. */
async function resolutionMails(
  uow: UnitOfWork,
  challenge: Challenge,
  decision: { winnerId: number | null; creditCents: bigint; note: string; key: string },
): Promise<Mail[]> {
  const { winnerId, creditCents, note } = decision;
  const players = await uow.tx
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(inArray(users.id, [challenge.creatorId, challenge.acceptorId ?? challenge.creatorId]));
  const winnerName = players.find((player) => player.id === winnerId)?.username;
  const outcome =
    winnerId === null
      ? `both stakes of ${formatCents(challenge.amountCents)} were refunded`
      : `${winnerName ?? 'the winner'} wins and was credited ${formatCents(creditCents)}`;
  return players.flatMap((player) =>
    player.email
      ? [
          {
            dedupeKey: `dispute-resolved:${challenge.id}:${decision.key}:${player.id}`,
            recipient: player.email,
            subject: `Challenge #${challenge.id} (${challenge.game}): dispute resolved`,
            body:
              `Hi ${player.username}, an admin resolved the dispute on challenge #${challenge.id}: ` +
              `${outcome}. Note from the admin: ${note}`,
            metadata: { challengeId: challenge.id, userId: player.id },
          },
        ]
      : [],
  );
}

/**
 * An admin decides a disputed challenge: award it to either player (prize − fee, the fee to the
 * house) or refund both stakes. When the result had already been settled, that settlement is
 * first undone by a reversing transfer that names it, which brings the prize back into escrow;
 * upholding the player who was already paid moves no money. The challenge row lock makes the
 * decision happen once; each transfer's key is tied to what it undoes, so none can repeat.
 */
export async function resolveDispute(
  ctx: AppContext,
  challengeId: number,
  resolution: Resolution,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const challenge = await lockChallenge(uow.tx, challengeId);
    if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
    if (challenge.status !== 'disputed' || challenge.acceptorId === null)
      throw new AppError('CHALLENGE_NOT_DISPUTED', ADMIN_MESSAGES.notDisputed);
    const { creatorId, acceptorId } = challenge;
    const winnerId =
      resolution.outcome === 'creator'
        ? creatorId
        : resolution.outcome === 'acceptor'
          ? acceptorId
          : null;
    const { prizeCents, feeCents, winnerCreditCents } = settle(challenge.amountCents);
    // Shared locks on both players keep an account deletion from sweeping a wallet between our
    // look at it and our credit to it.
    const deleted = new Set<number>();
    for (const playerId of [creatorId, acceptorId]) {
      if ((await lockUser(uow.tx, playerId, 'share'))?.deletedAt) deleted.add(playerId);
    }
    const payee: PayeeAccount = (userId) =>
      deleted.has(userId) ? HOUSE_UNCLAIMED : userWallet(userId);

    const settlement = await findUnreversedSettlement(uow.tx, challenge.id);
    // A result reported under review holds its credit in review:challenge:{id} (docs/fair-play.md).
    const heldForReview =
      settlement?.postings.some(
        (posting) => posting.account === challengeReview(challenge.id) && posting.amountCents > 0n,
      ) ?? false;
    const upheld =
      settlement !== undefined &&
      (heldForReview ? challenge.winnerId : paidWinnerOf(settlement)) === winnerId;
    let reversal: TransferResult | undefined;
    let applied: TransferResult | undefined;
    if (upheld && heldForReview && winnerId !== null) {
      // The reported winner is upheld: the held credit is released to them, once.
      applied = await ctx.ledger.post(uow, {
        idempotencyKey: `release:${challenge.id}`,
        kind: 'review_release',
        reference: { type: 'challenge', id: challenge.id },
        actorUserId: resolution.adminId,
        memo: resolution.note,
        entries: [
          {
            account: challengeReview(challenge.id),
            direction: 'debit',
            amountCents: winnerCreditCents,
          },
          { account: payee(winnerId), direction: 'credit', amountCents: winnerCreditCents },
        ],
      });
    } else if (!upheld) {
      if (settlement) {
        try {
          reversal = await ctx.ledger.post(uow, {
            idempotencyKey: `reverse:${settlement.id}`,
            kind: 'reversal',
            reference: { type: 'challenge', id: challenge.id },
            actorUserId: resolution.adminId,
            memo: resolution.note,
            reversesTransferId: settlement.id,
            entries: reversalEntries(settlement, payee),
          });
        } catch (error) {
          // Wallets never go below zero: if the paid winner has spent or withdrawn the winnings,
          // the admin must deal with that first rather than have us invent a debt.
          if (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE')
            throw new AppError('INSUFFICIENT_BALANCE', ADMIN_MESSAGES.reversalNotCovered);
          throw error;
        }
      }
      const escrow = challengeEscrow(challenge.id);
      const entries: Entry[] =
        winnerId === null
          ? [
              { account: escrow, direction: 'debit', amountCents: prizeCents },
              {
                account: payee(creatorId),
                direction: 'credit',
                amountCents: challenge.amountCents,
              },
              {
                account: payee(acceptorId),
                direction: 'credit',
                amountCents: challenge.amountCents,
              },
            ]
          : [
              { account: escrow, direction: 'debit', amountCents: prizeCents },
              { account: payee(winnerId), direction: 'credit', amountCents: winnerCreditCents },
              { account: HOUSE_FEES, direction: 'credit', amountCents: feeCents },
            ];
      applied = await ctx.ledger.post(uow, {
        idempotencyKey: settlement
          ? `resolve:${challenge.id}:after:${settlement.id}`
          : `resolve:${challenge.id}`,
        kind: winnerId === null ? 'refund' : 'settlement',
        reference: { type: 'challenge', id: challenge.id },
        actorUserId: resolution.adminId,
        memo: resolution.note,
        entries: mergeEntries(entries),
      });
    }

    const status = winnerId === null ? 'cancelled' : 'completed';
    const now = ctx.clock();
    await uow.tx
      .update(challenges)
      .set({
        status,
        winnerId,
        prizeCents,
        feeCents: winnerId === null ? null : feeCents,
        // The decision is final: nothing is left under review for the worker to release.
        ...(winnerId === null
          ? { cancelCause: 'refunded' as const }
          : { releasedAt: now, releaseCause: 'decided' as const }),
        // A challenge disputed because a player's account was deleted never had a result: the
        // admin's decision is what finalises it.
        completedAt: challenge.completedAt ?? now,
        updatedAt: now,
      })
      .where(eq(challenges.id, challenge.id));

    await recordAudit(uow.tx, {
      actorUserId: resolution.adminId,
      action: 'dispute.resolve',
      target: { type: 'challenge', id: challenge.id },
      details: {
        outcome: resolution.outcome,
        winnerId,
        creatorId,
        acceptorId,
        reversedTransferId: reversal ? (settlement?.id.toString() ?? null) : null,
        reversalTransferId: reversal?.transferId.toString() ?? null,
        transferId: applied?.transferId.toString() ?? null,
      },
      reason: resolution.note,
    });
    const decisionKey = applied?.transferId.toString() ?? `upheld:${settlement?.id}`;
    await enqueueMail(
      uow.tx,
      await resolutionMails(uow, challenge, {
        winnerId,
        creditCents: winnerCreditCents,
        note: resolution.note,
        key: decisionKey,
      }),
    );
    for (const playerId of [creatorId, acceptorId]) {
      const outcome =
        winnerId === null
          ? `both stakes of ${formatCents(challenge.amountCents)} were refunded`
          : winnerId === playerId
            ? `you win, and ${formatCents(winnerCreditCents)} is in your available balance`
            : 'your opponent wins';
      await notify(uow, ctx.bus, {
        userId: playerId,
        kind: 'dispute_decided',
        challengeId: challenge.id,
        title: `Challenge #${challenge.id}: the dispute was decided`,
        body: `An admin decided the dispute on challenge #${challenge.id}: ${outcome}.`,
        dedupeKey: `dispute-decided:${challenge.id}:${decisionKey}:${playerId}`,
        // The resolution mail above says it by mail.
        mail: false,
      });
    }
    uow.afterCommit(() =>
      ctx.bus.publish({
        type: 'challenge',
        challengeId: challenge.id,
        status,
        audience: [creatorId, acceptorId],
      }),
    );
  });
}
