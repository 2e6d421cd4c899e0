import { desc, eq } from 'drizzle-orm';
import {
  type LimitKey,
  type LimitView,
  type ResponsibleGaming,
  type SetLimitsBody,
} from '#shared/contracts/responsible-gaming.ts';
import { centsToDecimalString, centsToDollarNumber } from '#shared/money.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { responsibleGamingChanges } from '../../db/schema/responsible-gaming.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/index.ts';
import { playBreakOf } from '../accounts/index.ts';
import {
  changeLimits,
  depositsInWindows,
  leftToDeposit,
  lockPlayerDeposits,
  readLimits,
} from './deposit-limits.ts';

/** The history the page shows: the latest changes, newest first. */
const HISTORY_SHOWN = 50;

/** GET /api/responsible-gaming: the limits in force with what they leave, the break, the history. */
export async function responsibleGamingOf(
  db: Executor,
  userId: number,
  now: Date,
): Promise<ResponsibleGaming> {
  const [limits, used, [user], history] = await Promise.all([
    readLimits(db, userId, now),
    depositsInWindows(db, userId, now),
    db
      .select({ playBreakKind: users.playBreakKind, playBreakUntil: users.playBreakUntil })
      .from(users)
      .where(eq(users.id, userId)),
    db
      .select()
      .from(responsibleGamingChanges)
      .where(eq(responsibleGamingChanges.userId, userId))
      .orderBy(desc(responsibleGamingChanges.id))
      .limit(HISTORY_SHOWN),
  ]);
  if (!user) throw new Error(`user ${userId} has a session but no row`);
  const left = leftToDeposit(limits, used);
  const dollarsOrNull = (cents: bigint | null) =>
    cents === null ? null : centsToDollarNumber(cents);
  const view = (key: LimitKey): LimitView => {
    const { limitCents, pending } = limits[key];
    return {
      amount: dollarsOrNull(limitCents),
      used: centsToDollarNumber(used[key]),
      left: dollarsOrNull(left[key] ?? null),
      pending: pending && { amount: dollarsOrNull(pending.cents), at: pending.at.toISOString() },
    };
  };
  return {
    limits: { daily: view('daily'), weekly: view('weekly'), monthly: view('monthly') },
    playBreak: playBreakOf(user, now),
    history: history.map((change) => ({
      id: change.id,
      kind: change.kind,
      limit: change.period,
      amount: dollarsOrNull(change.amountCents),
      effectiveAt: change.effectiveAt.toISOString(),
      endsAt: change.endsAt?.toISOString() ?? null,
      createdAt: change.createdAt.toISOString(),
    })),
  };
}

/** PUT /api/responsible-gaming/limits: applies or schedules each change, audited. */
export async function setDepositLimits(
  ctx: AppContext,
  userId: number,
  body: SetLimitsBody,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    await lockPlayerDeposits(uow.tx, userId);
    const changes = await changeLimits(uow, userId, body, ctx.clock());
    if (changes.length === 0) return;
    await recordAudit(uow.tx, {
      actorUserId: userId,
      action: 'user.deposit_limits',
      target: { type: 'user', id: userId },
      details: Object.fromEntries(
        changes.map((change) => [
          change.key,
          {
            cents: change.cents === null ? null : centsToDecimalString(change.cents),
            effectiveAt: change.effectiveAt.toISOString(),
          },
        ]),
      ),
    });
  });
}
