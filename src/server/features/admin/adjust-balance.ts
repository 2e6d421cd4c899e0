import { randomUUID } from 'node:crypto';
import { ADMIN_BALANCE_MESSAGES } from '#shared/contracts/wallet.ts';
import { formatCents } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/index.ts';
import { getUserBalanceCents, HOUSE_ADJUSTMENTS, userWallet } from '../ledger/index.ts';
import { lockUser } from '../accounts/index.ts';

export interface Adjustment {
  adminId: number;
  userId: number;
  amountCents: bigint;
  reason: string | undefined;
  /** From the client's Idempotency-Key header, so a retried request adjusts once. */
  requestKey: string | undefined;
}

/**
 * Adds a signed amount to a user's wallet against the house's adjustment account, recording the
 * admin and the reason on the transfer and in the audit log. Returns the new balance in cents.
 */
export async function adjustBalance(ctx: AppContext, adjustment: Adjustment): Promise<bigint> {
  const { adminId, userId, amountCents } = adjustment;
  const wallet = userWallet(userId);
  const magnitude = amountCents < 0n ? -amountCents : amountCents;
  const [from, to] = amountCents > 0n ? [HOUSE_ADJUSTMENTS, wallet] : [wallet, HOUSE_ADJUSTMENTS];
  try {
    const result = await inTransaction(ctx.db, async (uow) => {
      // A deleted account's wallet was swept to house:unclaimed; nothing may land there again.
      const user = await lockUser(uow.tx, userId, 'share');
      if (!user || user.deletedAt) throw new AppError('NOT_FOUND', 'User not found');
      const posted = await ctx.ledger.post(uow, {
        idempotencyKey: `adjust:${adminId}:${adjustment.requestKey ?? randomUUID()}`,
        kind: 'adjustment',
        reference: { type: 'user', id: userId },
        actorUserId: adminId,
        ...(adjustment.reason ? { memo: adjustment.reason } : {}),
        entries: [
          { account: from, direction: 'debit', amountCents: magnitude },
          { account: to, direction: 'credit', amountCents: magnitude },
        ],
      });
      // A retried request replays the first transfer and moves nothing: nothing new to record.
      if (!posted.replayed) {
        const balanceAfterCents = posted.balancesAfter.get(wallet);
        if (balanceAfterCents === undefined) throw new Error('the adjustment missed the wallet');
        await recordAudit(uow.tx, {
          actorUserId: adminId,
          action: 'balance.adjust',
          target: { type: 'user', id: userId },
          details: {
            amountCents: amountCents.toString(),
            balanceAfterCents: balanceAfterCents.toString(),
            transferId: posted.transferId.toString(),
          },
          reason: adjustment.reason,
        });
      }
      return posted;
    });
    return result.balancesAfter.get(wallet) ?? (await getUserBalanceCents(ctx.db, userId));
  } catch (error) {
    if (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE') {
      const current = await getUserBalanceCents(ctx.db, userId);
      throw new AppError(
        'INSUFFICIENT_BALANCE',
        `${ADMIN_BALANCE_MESSAGES.belowZero} (current balance ${formatCents(current)}).`,
      );
    }
    throw error;
  }
}
