import { eq } from 'drizzle-orm';
import { RESPONSIBLE_GAMING_MESSAGES } from '#shared/contracts/responsible-gaming.ts';
import { formatCents } from '#shared/money.ts';
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
import { responsibleGamingChanges } from '../../db/schema/responsible-gaming.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockUser, playBreakOf } from '../../features/accounts/index.ts';
import { recordAudit } from '../../features/audit/index.ts';
import { lockOpenChallengesOf, withdrawOpenLocked } from '../../features/challenges/index.ts';
import { notify } from '../../features/notifications/index.ts';
import { lockPlayerDeposits } from '../../features/responsible-gaming/index.ts';
import { lockOpenEntriesOf, withdrawEntriesLocked } from '../../features/tournaments/index.ts';

const WITHDRAWN_NOTE = 'Player took a break from cash play';

export type PlayBreakLength = { days: TimeOutDays } | { months: SelfExclusionMonths };

/**
 * Starts a time-out or a self-exclusion (docs/responsible-play.md): from now until its end the
 * player may not deposit, create or accept; their open challenges and their places in tournaments
 * not yet started are withdrawn with the stakes and fees refunded in the same transaction. A break
 * may be made longer by a new one, never shorter, and nothing ends it early: it ends by itself. The
 * user row's `for update` lock holds off a challenge being created meanwhile (see
 * `createChallengeCall`); the deposit lock, a deposit being recorded.
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
