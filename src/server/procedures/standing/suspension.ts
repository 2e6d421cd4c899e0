import { eq } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import { suspensionMessage, type Suspension } from '#shared/suspension.ts';
import type { AppContext } from '../../context.ts';
import { users, type User } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../features/audit/index.ts';
import { lockOpenChallengesOf, withdrawOpenLocked } from '../../features/challenges/index.ts';
import { notify } from '../../features/notifications/index.ts';
import { lockOpenEntriesOf, withdrawEntriesLocked } from '../../features/tournaments/index.ts';
import { lockUser, suspensionOf } from '../../features/accounts/index.ts';

export const SUSPENDED_ACCOUNT_NOTE = 'Account suspended';

export interface SuspensionOrder {
  adminId: number;
  userId: number;
  reason: string;
  /** No end: until an admin lifts it. */
  until: Date | undefined;
}

export interface SuspensionSummary {
  suspension: Suspension;
  cancelledChallengeIds: number[];
}

/** The player an admin may suspend or reinstate, locked against a deletion or another admin. */
async function lockPlayer(uow: UnitOfWork, userId: number): Promise<User> {
  const user = await lockUser(uow.tx, userId, 'update');
  if (!user || user.deletedAt) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
  return user;
}

/**
 * Suspends a player (docs/fair-play.md): from now on they may sign in, read and withdraw their
 * available money, but not deposit, create or accept. Their open challenges and their places in
 * tournaments not yet started are withdrawn with the stakes and fees refunded, in the same
 * transaction; accepted matches stay, to be played, reported or called off. Suspending a suspended
 * player replaces the reason and the end. The row's `for update` lock holds off a challenge being
 * created meanwhile (see `createChallengeCall`).
 */
export async function suspendUser(
  ctx: AppContext,
  order: SuspensionOrder,
): Promise<SuspensionSummary> {
  if (order.adminId === order.userId)
    throw new AppError('FORBIDDEN', ADMIN_MESSAGES.cannotSuspendSelf);
  return inTransaction(ctx.db, async (uow) => {
    const places = await lockOpenEntriesOf(uow, order.userId);
    const user = await lockPlayer(uow, order.userId);
    // A suspension takes away a player's money actions, not an admin's powers: an admin who
    // should lose access loses the admin role instead.
    if (user.isAdmin) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.cannotSuspendAdmin);
    const now = ctx.clock();
    if (order.until && order.until <= now) {
      throw new AppError('VALIDATION_FAILED', ADMIN_MESSAGES.suspensionEndPast, {
        fields: { until: ADMIN_MESSAGES.suspensionEndPast },
      });
    }
    const [suspended] = await uow.tx
      .update(users)
      .set({
        suspendedAt: now,
        suspendedUntil: order.until ?? null,
        suspensionReason: order.reason,
      })
      .where(eq(users.id, user.id))
      .returning();
    const suspension = suspended && suspensionOf(suspended, now);
    if (!suspension) throw new Error(`user ${user.id} is not suspended after suspending`);

    const cancelledChallengeIds: number[] = [];
    for (const challenge of await lockOpenChallengesOf(uow.tx, user.id)) {
      await withdrawOpenLocked(ctx, uow, challenge, 'suspended', {
        actorUserId: order.adminId,
        memo: SUSPENDED_ACCOUNT_NOTE,
      });
      cancelledChallengeIds.push(challenge.id);
    }
    await withdrawEntriesLocked(
      ctx,
      uow,
      places.map((place) => ({ ...place, cause: 'suspended' })),
    );

    await recordAudit(uow.tx, {
      actorUserId: order.adminId,
      action: 'user.suspend',
      target: { type: 'user', id: user.id },
      details: {
        until: suspension.until,
        cancelledChallengeIds,
        withdrawnTournamentIds: places.map((place) => place.tournament.id),
      },
      reason: order.reason,
    });
    const message = suspensionMessage(suspension);
    // The reason is the admin's own words: end it as a sentence unless it already is one.
    const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
    const withdrawn =
      cancelledChallengeIds.length === 0
        ? ''
        : ` Your ${cancelledChallengeIds.length} open challenge(s) were cancelled and the stakes ` +
          'returned to your balance.';
    await notify(uow, ctx.bus, {
      userId: user.id,
      kind: 'account_suspended',
      title: 'Your account is suspended',
      body:
        `${sentence}${withdrawn} You can still sign in, see your challenges and withdraw your ` +
        'available balance, but not deposit, create or accept challenges.',
      dedupeKey: `account-suspended:${user.id}:${now.getTime()}`,
    });
    // Instances keep signed-in users in memory for a few seconds: each drops its copy.
    uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
    return { suspension, cancelledChallengeIds };
  });
}

/** Lifts a player's suspension before its end; the challenges it withdrew stay withdrawn. */
export async function unsuspendUser(
  ctx: AppContext,
  lift: { adminId: number; userId: number; reason: string | undefined },
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const user = await lockPlayer(uow, lift.userId);
    const now = ctx.clock();
    const lifted = suspensionOf(user, now);
    if (!lifted) throw new AppError('CONFLICT', ADMIN_MESSAGES.notSuspended);
    await uow.tx
      .update(users)
      .set({ suspendedAt: null, suspendedUntil: null, suspensionReason: null })
      .where(eq(users.id, user.id));
    await recordAudit(uow.tx, {
      actorUserId: lift.adminId,
      action: 'user.unsuspend',
      target: { type: 'user', id: user.id },
      details: {
        suspendedAt: user.suspendedAt?.toISOString() ?? null,
        until: lifted.until,
        suspensionReason: lifted.reason,
      },
      reason: lift.reason,
    });
    await notify(uow, ctx.bus, {
      userId: user.id,
      kind: 'suspension_lifted',
      title: 'Your suspension was lifted',
      body: 'An admin lifted the suspension of your account: you can deposit and play again.',
      dedupeKey: `suspension-lifted:${user.id}:${now.getTime()}`,
    });
    uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
  });
}
