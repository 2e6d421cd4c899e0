import { and, asc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { ACCOUNT_CLOSE_MESSAGES } from '#shared/contracts/account-data.ts';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { challenges } from '../../db/schema/challenges.ts';
import { payouts } from '../../db/schema/payouts.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { formatUtc } from '../../lib/format-time.ts';
import { UNAUTHENTICATED_MESSAGE } from '../../plugins/access.ts';
import { recordAudit } from '../../features/audit/index.ts';
import { tournamentHoldsOf } from '../../features/tournaments/index.ts';
import { closeAccountLocked, unusablePasswordHash, type ClosureSummary } from './close-account.ts';
import { lockUser } from '../../features/accounts/index.ts';

/** The ledger memo and licence note of a player's own closing. */
export const CLOSED_BY_PLAYER_NOTE = 'Account closed by the player';

const TOURNAMENT_HOLD_REASONS = {
  open: ACCOUNT_CLOSE_MESSAGES.tournamentOpen,
  playing: ACCOUNT_CLOSE_MESSAGES.tournamentPlaying,
  out: ACCOUNT_CLOSE_MESSAGES.tournamentOut,
} as const;

/**
 * Where the player's money still is, in words, oldest first: stakes in escrow (their open
 * challenges, the accepted and disputed ones they play in), winnings held for review
 * (docs/fair-play.md), payouts not yet sent, and tournaments that will refund or pay them. Empty
 * when nothing holds money of theirs. Every challenge with money of the player's has them as a
 * player (the winner is one of the two), so both reads go through the players' and the owner's
 * indexes.
 */
export async function moneyHeldFor(db: Executor, userId: number): Promise<string[]> {
  const held = await db
    .select({
      id: challenges.id,
      status: challenges.status,
      reviewEndsAt: challenges.reviewEndsAt,
    })
    .from(challenges)
    .where(
      and(
        or(eq(challenges.creatorId, userId), eq(challenges.acceptorId, userId)),
        or(
          inArray(challenges.status, ['open', 'accepted', 'disputed']),
          and(
            eq(challenges.status, 'completed'),
            eq(challenges.winnerId, userId),
            isNotNull(challenges.reviewEndsAt),
            isNull(challenges.releasedAt),
          ),
        ),
      ),
    )
    .orderBy(asc(challenges.id));
  const pending = await db
    .select({ id: payouts.id, amountCents: payouts.amountCents })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.status, 'pending')))
    .orderBy(asc(payouts.id));

  const reasons = held.map((challenge) => {
    switch (challenge.status) {
      case 'open':
        return ACCOUNT_CLOSE_MESSAGES.openChallenge(challenge.id);
      case 'accepted':
        return ACCOUNT_CLOSE_MESSAGES.acceptedChallenge(challenge.id);
      case 'disputed':
        return ACCOUNT_CLOSE_MESSAGES.disputedChallenge(challenge.id);
      default:
        if (!challenge.reviewEndsAt) throw new Error(`challenge ${challenge.id} has no review`);
        return ACCOUNT_CLOSE_MESSAGES.winningsUnderReview(
          challenge.id,
          formatUtc(challenge.reviewEndsAt),
        );
    }
  });
  for (const payout of pending) {
    reasons.push(ACCOUNT_CLOSE_MESSAGES.payoutPending(payout.id, formatCents(payout.amountCents)));
  }
  // A tournament's refund or prize reaches a closed account's wallet no more (decision 0020).
  for (const hold of await tournamentHoldsOf(db, userId)) {
    reasons.push(TOURNAMENT_HOLD_REASONS[hold.state](hold.tournamentId));
  }
  return reasons;
}

/**
 * The player closes their own account (docs/responsible-play.md), their password already checked.
 * Under the user row's lock, which holds off every new stake, acceptance, payout and credit of
 * theirs until the transaction ends (`lockUser`), it is refused while money of theirs is in escrow,
 * under review or on its way out, with where it is; otherwise it closes with an admin's deletion's
 * money rules (`closeAccountLocked`): what the wallet holds goes to the operator's unclaimed funds,
 * personal data is erased, every session and socket ends. An admin account is refused: another
 * admin deletes it, as an admin may not delete their own.
 */
export async function closeOwnAccount(ctx: AppContext, userId: number): Promise<ClosureSummary> {
  const passwordHash = await unusablePasswordHash();
  return inTransaction(ctx.db, async (uow) => {
    const user = await lockUser(uow.tx, userId, 'update');
    // Deleted by an admin a moment ago: the session it came with is gone too.
    if (!user || user.deletedAt) throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
    if (user.isAdmin) throw new AppError('FORBIDDEN', ACCOUNT_CLOSE_MESSAGES.adminAccount);
    const reasons = await moneyHeldFor(uow.tx, user.id);
    if (reasons.length > 0) {
      throw new AppError('MONEY_HELD', ACCOUNT_CLOSE_MESSAGES.moneyHeld(reasons));
    }
    const summary = await closeAccountLocked(ctx, uow, user, {
      actorUserId: user.id,
      note: CLOSED_BY_PLAYER_NOTE,
      passwordHash,
    });
    await recordAudit(uow.tx, {
      actorUserId: user.id,
      action: 'user.close',
      target: { type: 'user', id: user.id },
      details: {
        rejectedVerificationIds: summary.rejectedVerificationIds,
        unclaimedCents: summary.unclaimedCents.toString(),
      },
    });
    return summary;
  });
}
