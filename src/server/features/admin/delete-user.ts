import { DELETED_USERNAME_PREFIX } from '#shared/contracts/auth.ts';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import type { AppContext } from '../../context.ts';
import { challenges } from '../../db/schema/challenges.ts';
import { authTokens, knownDevices } from '../../db/schema/account-security.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { hashPassword } from '../auth/password.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { eraseTwoFactor } from '../auth/two-factor.ts';
import { challengeEscrow, HOUSE_UNCLAIMED, userWallet } from '../ledger/accounts.ts';
import { lockPendingPayoutsOf } from '../payouts/repository.ts';
import { applyPayoutDecision } from '../payouts/service.ts';
import { rejectPendingVerificationsOf } from '../profile/verification.ts';
import { lockActiveChallengesOf, lockUser, lockWalletBalance } from './repository.ts';

export const DELETED_ACCOUNT_NOTE = 'Account deleted';
export const DELETED_PLAYER_DISPUTE =
  "A player's account was deleted before the result was reported";

export interface DeletionSummary {
  cancelledChallengeIds: number[];
  disputedChallengeIds: number[];
  failedPayoutIds: number[];
  unclaimedCents: bigint;
}

/** The name a deleted account keeps, so its old name is free and its history still reads. */
export const deletedUsername = (userId: number): string => `${DELETED_USERNAME_PREFIX}${userId}`;

/**
 * Deletes an account in one transaction: its open challenges are cancelled with the stake
 * refunded, accepted ones go to the dispute queue, pending payouts fail back to the wallet, the
 * remaining balance moves to `house:unclaimed`, personal data is erased and every session ends.
 * The user row itself stays (ledger, challenges and payouts name it), and the ledger keeps its
 * history: nothing is removed, every movement is a new transfer.
 */
export async function deleteUser(
  ctx: AppContext,
  adminId: number,
  userId: number,
  reason: string | undefined,
): Promise<DeletionSummary> {
  if (adminId === userId) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.cannotDeleteSelf);
  // A hash of a random secret nobody knows: no password matches it, and checking one against it
  // takes as long as for any account, so timing does not reveal deleted accounts.
  const unusablePasswordHash = await hashPassword(randomBytes(32).toString('base64url'));

  return inTransaction(ctx.db, async (uow) => {
    const { tx } = uow;
    const user = await lockUser(tx, userId, 'update');
    if (!user || user.deletedAt) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
    const now = ctx.clock();
    const summary: DeletionSummary = {
      cancelledChallengeIds: [],
      disputedChallengeIds: [],
      failedPayoutIds: [],
      unclaimedCents: 0n,
    };

    for (const challenge of await lockActiveChallengesOf(tx, userId)) {
      if (challenge.status === 'open') {
        // The same key as the creator's own cancel: one refund per challenge, whoever asks.
        await ctx.ledger.post(uow, {
          idempotencyKey: `refund:cancel:${challenge.id}`,
          kind: 'refund',
          reference: { type: 'challenge', id: challenge.id },
          actorUserId: adminId,
          memo: DELETED_ACCOUNT_NOTE,
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
        await tx
          .update(challenges)
          .set({ status: 'cancelled', updatedAt: now })
          .where(eq(challenges.id, challenge.id));
        summary.cancelledChallengeIds.push(challenge.id);
        uow.afterCommit(() =>
          ctx.bus.publish({
            type: 'challenge',
            challengeId: challenge.id,
            status: 'cancelled',
            audience: 'all',
          }),
        );
      } else {
        // Nobody can report the result now: the stakes wait in escrow for an admin's decision.
        await tx
          .update(challenges)
          .set({ status: 'disputed', disputeReason: DELETED_PLAYER_DISPUTE, updatedAt: now })
          .where(eq(challenges.id, challenge.id));
        summary.disputedChallengeIds.push(challenge.id);
        uow.afterCommit(() =>
          ctx.bus.publish({
            type: 'challenge',
            challengeId: challenge.id,
            status: 'disputed',
            audience: [
              challenge.creatorId,
              ...(challenge.acceptorId ? [challenge.acceptorId] : []),
            ],
          }),
        );
      }
    }

    for (const payout of await lockPendingPayoutsOf(tx, userId)) {
      await applyPayoutDecision(ctx, uow, payout, {
        outcome: 'fail',
        adminId,
        reason: DELETED_ACCOUNT_NOTE,
      });
      summary.failedPayoutIds.push(payout.id);
    }
    const rejectedVerificationIds = await rejectPendingVerificationsOf(
      uow,
      userId,
      adminId,
      DELETED_ACCOUNT_NOTE,
      now,
    );

    summary.unclaimedCents = await lockWalletBalance(tx, userId);
    if (summary.unclaimedCents > 0n) {
      await ctx.ledger.post(uow, {
        idempotencyKey: `unclaimed:user:${userId}`,
        kind: 'unclaimed',
        reference: { type: 'user', id: userId },
        actorUserId: adminId,
        memo: DELETED_ACCOUNT_NOTE,
        entries: [
          { account: userWallet(userId), direction: 'debit', amountCents: summary.unclaimedCents },
          { account: HOUSE_UNCLAIMED, direction: 'credit', amountCents: summary.unclaimedCents },
        ],
      });
    }

    await tx
      .update(users)
      .set({
        username: deletedUsername(userId),
        passwordHash: unusablePasswordHash,
        email: null,
        phoneNumber: null,
        state: null,
        avatarUrl: null,
        isAdmin: false,
        emailVerifiedAt: null,
        deletedAt: now,
      })
      .where(eq(users.id, userId));
    // Its authenticator secret and recovery codes are personal data too, and a sign-in waiting
    // for its code must not outlive the account; nor may its mailed links (they name the old
    // address) or the browsers and places it signed in from.
    await eraseTwoFactor(tx, userId);
    await tx.delete(authTokens).where(eq(authTokens.userId, userId));
    await tx.delete(knownDevices).where(eq(knownDevices.userId, userId));
    await revokeUserSessions(tx, userId);
    uow.afterCommit(() => ctx.bus.publish({ type: 'sessions-revoked', userId }));

    await recordAudit(tx, {
      actorUserId: adminId,
      action: 'user.delete',
      target: { type: 'user', id: userId },
      details: {
        cancelledChallengeIds: summary.cancelledChallengeIds,
        disputedChallengeIds: summary.disputedChallengeIds,
        failedPayoutIds: summary.failedPayoutIds,
        rejectedVerificationIds,
        unclaimedCents: summary.unclaimedCents.toString(),
        wasAdmin: user.isAdmin,
      },
      reason,
    });
    return summary;
  });
}
