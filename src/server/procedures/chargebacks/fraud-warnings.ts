import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatCents } from '#shared/money.ts';
import { fraudWarningReason, moneyLockMessage } from '#shared/money-lock.ts';
import type { AppContext } from '../../context.ts';
import { cardDisputes } from '../../db/schema/card-disputes.ts';
import {
  cardFraudWarnings,
  type CardFraudWarning,
  type FraudWarningAction,
} from '../../db/schema/card-refunds.ts';
import { users } from '../../db/schema/users.ts';
import type { UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockMoney } from '../../features/accounts/index.ts';
import { lockWalletAndDebt, stakedSince } from '../../features/ledger/index.ts';
import { notify } from '../../features/notifications/index.ts';
import { lockPayment, type CardFraudWarningReport } from '../../features/payments/index.ts';
import { holdCardRefund } from './card-refunds.ts';
import {
  gatherMoney,
  lockPlayerAndPlaces,
  refundedCentsOf,
  type LockedPlayer,
} from './disputes.ts';

type CardProviderName = 'stripe' | 'sandbox-card';

/**
 * Applies a card network's early warning of fraud on a payment (docs/chargebacks.md), once per
 * warning, in the caller's transaction. While the payment's money is still unplayed in the
 * wallet (nothing staked since it was credited, and the wallet holds what is left of it) it goes
 * back to the card at once, as a card refund the worker makes: the cardholder has their money,
 * and a dispute has nothing left to take. Otherwise the account's money is locked as a dispute's
 * would be, and the admins are told. A payment already disputed or refunded needs neither.
 */
export async function recordFraudWarning(
  ctx: AppContext,
  uow: UnitOfWork,
  log: FastifyBaseLogger,
  provider: CardProviderName,
  report: CardFraudWarningReport,
): Promise<CardFraudWarning | null> {
  const context = { warningId: report.warningId, paymentIntentId: report.paymentIntentId };
  if (report.paymentIntentId === null) {
    log.warn(context, 'early fraud warning ignored: not a payment of ours');
    return null;
  }
  const payment = await lockPayment(uow.tx, provider, report.paymentIntentId);
  if (!payment || payment.method !== 'card') {
    log.warn(context, 'early fraud warning ignored: no such card payment');
    return null;
  }
  const [known] = await uow.tx
    .select()
    .from(cardFraudWarnings)
    .where(
      and(
        eq(cardFraudWarnings.provider, provider),
        eq(cardFraudWarnings.providerWarningId, report.warningId),
      ),
    );
  if (known) return known;
  if (payment.creditedAmountCents === null || payment.creditedAt === null) {
    if (payment.status !== 'pending') {
      log.warn({ ...context, status: payment.status }, 'early fraud warning of an unpaid payment');
      return null;
    }
    // Our record of the payment is a moment behind the network's: failing makes Stripe retry.
    throw new AppError('SERVICE_UNAVAILABLE', 'The warned payment is not credited yet.');
  }

  const amount = formatCents(payment.creditedAmountCents);
  const [disputed] = await uow.tx
    .select({ id: cardDisputes.id })
    .from(cardDisputes)
    .where(eq(cardDisputes.paymentId, payment.id));
  const leftCents =
    payment.creditedAmountCents -
    (await refundedCentsOf(uow, payment.id, ['pending', 'succeeded']));
  let action: FraudWarningAction;
  if (disputed || leftCents <= 0n) {
    action = 'ignored';
  } else {
    // The player before the wallet, as everything that moves their money takes them.
    const player = await lockPlayerAndPlaces(uow, payment.userId);
    const { walletCents } = await lockWalletAndDebt(uow.tx, payment.userId);
    const played = await stakedSince(uow.tx, payment.userId, payment.creditedAt);
    const unplayed = played.stakes === 0 && walletCents >= leftCents;
    action = !player.user.deletedAt && unplayed ? 'refunded' : 'locked';
    if (action === 'locked') await lockAfterWarning(ctx, uow, player, report.warningId, amount);
  }
  const [warning] = await uow.tx
    .insert(cardFraudWarnings)
    .values({
      provider,
      providerWarningId: report.warningId,
      paymentId: payment.id,
      userId: payment.userId,
      fraudType: report.fraudType,
      action,
      createdAt: ctx.clock(),
    })
    .returning();
  if (!warning) throw new Error(`early fraud warning ${report.warningId} was not stored`);
  if (action === 'refunded') {
    await holdCardRefund(ctx, uow, {
      userId: payment.userId,
      paymentId: payment.id,
      amountCents: leftCents,
      fraudWarningId: warning.id,
    });
  }
  if (action !== 'ignored') await tellAdmins(ctx, uow, warning, amount);
  log.info({ ...context, action }, 'early fraud warning recorded');
  return warning;
}

/** Locks the player's money for a warning on a payment already played. */
async function lockAfterWarning(
  ctx: AppContext,
  uow: UnitOfWork,
  player: LockedPlayer,
  warningId: string,
  amount: string,
): Promise<void> {
  const reason = fraudWarningReason(amount);
  await gatherMoney(ctx, uow, player, reason);
  const now = ctx.clock();
  const { user } = player;
  if (await lockMoney(uow.tx, user, reason, now)) {
    await notify(uow, ctx.bus, {
      userId: user.id,
      kind: 'money_locked',
      title: 'Your money is locked',
      body: moneyLockMessage({ reason, since: now.toISOString() }),
      dedupeKey: `money-locked:${warningId}`,
    });
  }
  uow.afterCommit(() => ctx.bus.publish({ type: 'user-changed', userId: user.id }));
}

/** Every admin's notification of an early fraud warning, with what was done. */
async function tellAdmins(
  ctx: AppContext,
  uow: UnitOfWork,
  warning: CardFraudWarning,
  amount: string,
): Promise<void> {
  const [player] = await uow.tx
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, warning.userId));
  const admins = await uow.tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), isNull(users.deletedAt)));
  const done =
    warning.action === 'refunded'
      ? 'It was unplayed, so it is being refunded to the card.'
      : "It was played, so the player's money is locked until you lift it.";
  for (const admin of admins) {
    await notify(uow, ctx.bus, {
      userId: admin.id,
      kind: 'card_fraud_warning',
      title: `Fraud warning on ${player?.username ?? 'a player'}'s card payment`,
      body: `The card network warned that a card payment of ${amount} was fraudulent (${warning.fraudType}). ${done}`,
      dedupeKey: `card-fraud-warning:${warning.id}:${admin.id}`,
      mail: false,
    });
  }
}
