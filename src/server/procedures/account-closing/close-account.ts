import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DELETED_USERNAME_PREFIX } from '#shared/contracts/auth.ts';
import { PAYOUT_MESSAGES } from '#shared/contracts/payouts.ts';
import type { AppContext } from '../../context.ts';
import { authTokens, knownDevices } from '../../db/schema/account-security.ts';
import { challenges } from '../../db/schema/challenges.ts';
import { users, type User } from '../../db/schema/users.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import {
  eraseDeviceSignIns,
  eraseTwoFactor,
  hashPassword,
  rejectPendingVerificationsOf,
  revokeUserSessions,
} from '../../features/accounts/index.ts';
import {
  challengeEscrow,
  HOUSE_UNCLAIMED,
  lockWalletBalance,
  userWallet,
} from '../../features/ledger/index.ts';
import { applyPayoutDecision, lockPendingPayoutsOf } from '../../features/payouts/index.ts';
import { lockActiveChallengesOf } from '../../features/challenges/index.ts';

/** Why a challenge of a closed account waits for an admin: nobody can report its result now. */
export const CLOSED_PLAYER_DISPUTE =
  "A player's account was deleted before the result was reported";

/** What a closed account's contact details on its challenges become. */
export const ERASED_CONTACT = '';

/** The name a closed account keeps, so its old name is free and its history still reads. */
export const deletedUsername = (userId: number): string => `${DELETED_USERNAME_PREFIX}${userId}`;

/**
 * A hash of a random secret nobody knows: no password matches it, and checking one against it
 * takes as long as for any account, so timing does not reveal closed accounts. Made before the
 * transaction, so that its 25 ms of hashing hold no lock.
 */
export function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

export interface ClosureSummary {
  cancelledChallengeIds: number[];
  disputedChallengeIds: number[];
  failedPayoutIds: number[];
  rejectedVerificationIds: number[];
  unclaimedCents: bigint;
}

export interface Closure {
  /** Who closes it: an admin deleting the account, or the player closing their own. */
  actorUserId: number;
  /** The ledger memo, payout failure and licence rejection note of every change it makes. */
  note: string;
  /** From `unusablePasswordHash()`. */
  passwordHash: string;
}

/**
 * Closes an account whose row the caller has locked `for update` in `uow` (decision 5), with the
 * same money rules whoever asks (an admin's deletion, the player's own closing,
 * docs/responsible-play.md): open challenges are cancelled with the stake refunded, accepted ones
 * go to the dispute queue with their escrow intact, pending payouts fail back to the wallet, a
 * pending licence review is rejected, the remaining balance moves to `house:unclaimed`, personal
 * data (the contact details on its challenges included) is erased and every session ends, with the
 * account's sockets on every instance. The user row itself stays (the ledger, challenges and
 * payouts name it), and the ledger keeps its history: every movement is a new transfer. The caller
 * records the audit entry, which names who closed it and why.
 */
export async function closeAccountLocked(
  ctx: AppContext,
  uow: UnitOfWork,
  user: User,
  closure: Closure,
): Promise<ClosureSummary> {
  const { tx } = uow;
  const userId = user.id;
  const { actorUserId, note } = closure;
  const now = ctx.clock();
  // Every instance forgets the account's sessions and closes its sockets (the account socket and
  // voice chat alike) once this commits. Announced before anything else the closing publishes, so
  // that its browsers are shut before the news of its wallet swept to zero could reach them.
  uow.afterCommit(() => ctx.bus.publish({ type: 'sessions-revoked', userId }));
  const summary: ClosureSummary = {
    cancelledChallengeIds: [],
    disputedChallengeIds: [],
    failedPayoutIds: [],
    rejectedVerificationIds: [],
    unclaimedCents: 0n,
  };

  for (const challenge of await lockActiveChallengesOf(tx, userId)) {
    if (challenge.status === 'open') {
      // The same key as the creator's own cancel: one refund per challenge, whoever asks.
      await ctx.ledger.post(uow, {
        idempotencyKey: `refund:cancel:${challenge.id}`,
        kind: 'refund',
        reference: { type: 'challenge', id: challenge.id },
        actorUserId,
        memo: note,
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
        .set({ status: 'disputed', disputeReason: CLOSED_PLAYER_DISPUTE, updatedAt: now })
        .where(eq(challenges.id, challenge.id));
      summary.disputedChallengeIds.push(challenge.id);
      uow.afterCommit(() =>
        ctx.bus.publish({
          type: 'challenge',
          challengeId: challenge.id,
          status: 'disputed',
          audience: [challenge.creatorId, ...(challenge.acceptorId ? [challenge.acceptorId] : [])],
        }),
      );
    }
  }

  const pendingPayouts = await lockPendingPayoutsOf(tx, userId);
  // A payout with the provider ends only by the provider's answer (docs/payouts.md): failing it
  // here could return money already on the chain.
  const inFlight = pendingPayouts.find(
    (payout) => payout.stage === 'sending' || payout.stage === 'sent',
  );
  if (inFlight) throw new AppError('MONEY_HELD', PAYOUT_MESSAGES.inFlightClosing(inFlight.id));
  for (const payout of pendingPayouts) {
    await applyPayoutDecision(ctx, uow, payout, {
      outcome: 'fail',
      adminId: actorUserId,
      reason: note,
    });
    summary.failedPayoutIds.push(payout.id);
  }
  summary.rejectedVerificationIds = await rejectPendingVerificationsOf(
    uow,
    userId,
    actorUserId,
    note,
    now,
  );

  summary.unclaimedCents = await lockWalletBalance(tx, userId);
  if (summary.unclaimedCents > 0n) {
    await ctx.ledger.post(uow, {
      idempotencyKey: `unclaimed:user:${userId}`,
      kind: 'unclaimed',
      reference: { type: 'user', id: userId },
      actorUserId,
      memo: note,
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
      passwordHash: closure.passwordHash,
      email: null,
      phoneNumber: null,
      state: null,
      avatarUrl: null,
      isAdmin: false,
      emailVerifiedAt: null,
      deletedAt: now,
    })
    .where(eq(users.id, userId));
  // The gamer tag and phone number typed on each challenge are the player's contact details too:
  // opponents, admins and every data export would go on showing them. The columns are required,
  // so they are emptied, which every view shows as erased.
  await tx
    .update(challenges)
    .set({ gamerTag: ERASED_CONTACT, phoneNumber: ERASED_CONTACT })
    .where(eq(challenges.creatorId, userId));
  // Its authenticator secret and recovery codes are personal data too, and a sign-in waiting
  // for its code must not outlive the account; nor may its mailed links (they name the old
  // address) or the browsers and places it signed in from.
  await eraseTwoFactor(tx, userId);
  await tx.delete(authTokens).where(eq(authTokens.userId, userId));
  await tx.delete(knownDevices).where(eq(knownDevices.userId, userId));
  await eraseDeviceSignIns(tx, userId);
  await revokeUserSessions(tx, userId);
  return summary;
}
