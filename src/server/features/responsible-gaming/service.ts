import { desc, eq } from 'drizzle-orm';
import {
  RESPONSIBLE_GAMING_MESSAGES,
  type LimitKey,
  type LimitView,
  type ResponsibleGaming,
  type SetLimitsBody,
} from '#shared/contracts/responsible-gaming.ts';
import { centsToDecimalString, centsToDollarNumber, formatCents } from '#shared/money.ts';
import {
  HELPLINE,
  playBreakEnd,
  playBreakMessage,
  selfExclusionLabel,
  timeOutLabel,
  type PlayBreakKind,
  type SelfExclusionMonths,
  type TimeOutDays,
} from '#shared/play-breaks.ts';
import { formatSuspensionEnd } from '#shared/suspension.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { responsibleGamingChanges } from '../../db/schema/responsible-gaming.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockOpenChallengesOf, lockUser } from '../admin/repository.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { withdrawOpenLocked } from '../challenges/review.ts';
import { notify } from '../notifications/notify.ts';
import { lockOpenEntriesOf, withdrawEntriesLocked } from '../tournaments/withdrawals.ts';
import { playBreakOf } from '../users/suspension.ts';
import {
  changeLimits,
  depositsInWindows,
  leftToDeposit,
  lockPlayerDeposits,
  readLimits,
} from './deposit-limits.ts';

/** The history the page shows: the latest changes, newest first. */
const HISTORY_SHOWN = 50;
const WITHDRAWN_NOTE = 'Player took a break from cash play';

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

export type PlayBreakLength = { days: TimeOutDays } | { months: SelfExclusionMonths };

/**
 * Starts a time-out or a self-exclusion (DESIGN §11): from now until its end the player may not
 * deposit, create or accept; their open challenges and their places in tournaments not yet
 * started are withdrawn with the stakes and fees refunded in the same transaction. A break may be made longer by a new one, never shorter, and nothing
 * ends it early: it ends by itself. The user row's `for update` lock holds off a challenge being
 * created meanwhile (see `createChallengeCall`); the deposit lock, a deposit being recorded.
 */
export async function takePlayBreak(
  ctx: AppContext,
  userId: number,
  length: PlayBreakLength,
): Promise<void> {
  const kind: PlayBreakKind = 'days' in length ? 'time_out' : 'self_exclusion';
  await inTransaction(ctx.db, async (uow) => {
    const places = await lockOpenEntriesOf(uow, userId);
    await lockPlayerDeposits(uow.tx, userId);
    const user = await lockUser(uow.tx, userId, 'update');
    if (!user) throw new Error(`user ${userId} has a session but no row`);
    const now = ctx.clock();
    const until = playBreakEnd(now, length);
    const current = playBreakOf(user, now);
    if (current && new Date(current.until) >= until) {
      throw new AppError(
        'CONFLICT',
        RESPONSIBLE_GAMING_MESSAGES.breakWouldShorten(formatSuspensionEnd(current.until)),
      );
    }
    await uow.tx
      .update(users)
      .set({ playBreakKind: kind, playBreakUntil: until })
      .where(eq(users.id, userId));
    await uow.tx.insert(responsibleGamingChanges).values({
      userId,
      kind,
      effectiveAt: now,
      endsAt: until,
      createdAt: now,
    });
    const withdrawn: number[] = [];
    let refundedCents = 0n;
    for (const challenge of await lockOpenChallengesOf(uow.tx, userId)) {
      await withdrawOpenLocked(ctx, uow, challenge, 'play_break', {
        actorUserId: userId,
        memo: WITHDRAWN_NOTE,
      });
      withdrawn.push(challenge.id);
      refundedCents += challenge.amountCents;
    }
    await withdrawEntriesLocked(
      ctx,
      uow,
      places.map((place) => ({ ...place, cause: 'play_break' })),
    );
    await recordAudit(uow.tx, {
      actorUserId: userId,
      action: 'user.play_break',
      target: { type: 'user', id: userId },
      details: {
        kind,
        until: until.toISOString(),
        cancelledChallengeIds: withdrawn,
        withdrawnTournamentIds: places.map((place) => place.tournament.id),
      },
    });
    const lengthLabel =
      'days' in length ? timeOutLabel(length.days) : selfExclusionLabel(length.months);
    const refunds =
      withdrawn.length === 0
        ? ''
        : ` Your ${withdrawn.length} open challenge(s) were withdrawn and ${formatCents(refundedCents)} ` +
          'returned to your balance.';
    await notify(uow, ctx.bus, {
      userId,
      kind: 'play_break_started',
      title:
        kind === 'time_out'
          ? `Your ${lengthLabel} time-out has started`
          : `Your ${lengthLabel} self-exclusion has started`,
      body:
        `${playBreakMessage({ kind, until: until.toISOString() })}${refunds} You can still sign ` +
        'in, follow your matches and withdraw your available balance. Help is available at ' +
        `${HELPLINE.name}.`,
      dedupeKey: `play-break:${userId}:${now.getTime()}`,
    });
    // Instances keep signed-in users in memory for a few seconds: each drops its copy.
    uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId }));
  });
}
