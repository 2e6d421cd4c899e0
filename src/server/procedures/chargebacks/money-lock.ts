import { CHARGEBACK_MESSAGES } from '#shared/contracts/chargebacks.ts';
import { ADMIN_MESSAGES } from '#shared/contracts/admin.ts';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { liftMoneyLock, lockUser, moneyLockOf } from '../../features/accounts/index.ts';
import { recordAudit } from '../../features/audit/index.ts';
import { lockWalletAndDebt } from '../../features/ledger/index.ts';
import { notify } from '../../features/notifications/index.ts';

/**
 * An admin's LIFT LOCK (docs/chargebacks.md): only once the player owes nothing, audited, and the
 * player told. The player's row and then their wallet and debt are locked, so a chargeback cannot
 * land between the check and the lift.
 */
export async function liftMoneyLockByAdmin(
  ctx: AppContext,
  order: { adminId: number; userId: number; note: string | undefined },
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const user = await lockUser(uow.tx, order.userId, 'no key update');
    if (!user || user.deletedAt) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.userNotFound);
    const lock = moneyLockOf(user);
    if (!lock) throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.notLocked);
    const { debtCents } = await lockWalletAndDebt(uow.tx, user.id);
    if (debtCents > 0n) {
      throw new AppError('CONFLICT', CHARGEBACK_MESSAGES.stillOwes(formatCents(debtCents)));
    }
    await liftMoneyLock(uow.tx, user.id);
    await recordAudit(uow.tx, {
      actorUserId: order.adminId,
      action: 'user.money_lock_lifted',
      target: { type: 'user', id: user.id },
      details: { lockedSince: lock.since, lockReason: lock.reason },
      reason: order.note,
    });
    const now = ctx.clock();
    await notify(uow, ctx.bus, {
      userId: user.id,
      kind: 'money_lock_lifted',
      title: 'The lock on your money was lifted',
      body: 'Our team lifted the lock on your money: you can deposit, play and withdraw again.',
      dedupeKey: `money-lock-lifted:${user.id}:${now.getTime()}`,
    });
    uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
  });
}
