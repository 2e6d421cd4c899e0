import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../features/audit/index.ts';
import { closeAccountLocked, unusablePasswordHash, type ClosureSummary } from './close-account.ts';
import { lockUser } from '../../features/accounts/index.ts';

export const DELETED_ACCOUNT_NOTE = 'Account deleted';

/**
 * An admin deletes an account (decision 5): in one transaction under the user row's lock, with
 * the money rules every closing follows (`closeAccountLocked`), and an audit entry naming the
 * admin and the reason.
 */
export async function deleteUser(
  ctx: AppContext,
  adminId: number,
  userId: number,
  reason: string | undefined,
): Promise<ClosureSummary> {
  if (adminId === userId) throw new AppError('FORBIDDEN', ADMIN_MESSAGES.cannotDeleteSelf);
  const passwordHash = await unusablePasswordHash();

  return inTransaction(ctx.db, async (uow) => {
    const user = await lockUser(uow.tx, userId, 'update');
    if (!user || user.deletedAt) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
    const summary = await closeAccountLocked(ctx, uow, user, {
      actorUserId: adminId,
      note: DELETED_ACCOUNT_NOTE,
      passwordHash,
    });
    await recordAudit(uow.tx, {
      actorUserId: adminId,
      action: 'user.delete',
      target: { type: 'user', id: userId },
      details: {
        cancelledChallengeIds: summary.cancelledChallengeIds,
        disputedChallengeIds: summary.disputedChallengeIds,
        failedPayoutIds: summary.failedPayoutIds,
        rejectedVerificationIds: summary.rejectedVerificationIds,
        unclaimedCents: summary.unclaimedCents.toString(),
        wasAdmin: user.isAdmin,
      },
      reason,
    });
    return summary;
  });
}
