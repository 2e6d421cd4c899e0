import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { PAYOUT_MESSAGES } from '#shared/contracts/payouts.ts';
import { formatCents } from '#shared/money.ts';
import { findPayoutCoin, PAYOUT_ADDRESS_MESSAGES } from '#shared/payout-coins.ts';
import type { AppContext } from '../../context.ts';
import { payouts, type Payout, type PayoutMethod } from '../../db/schema/payouts.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { lockUser, requireMoneyUnlocked } from '../accounts/index.ts';
import { recordAudit } from '../audit/index.ts';
import { payoutHold, userWallet } from '../ledger/index.ts';
import { PaymentProviderError } from '../payments/index.ts';
import type { PayoutDestination, PayoutProvider } from './providers/types.ts';
import { lockWithdrawalsOf, requireWithdrawable } from './card-money.ts';
import { lockPayout } from './repository.ts';
import { hasApprovedIdentity, REVIEW_REASON_SEPARATOR, reviewReasonsFor } from './rules.ts';
import { type PayoutSender, notifyStage, endPayout, type PayoutDecision } from './stages.ts';

export interface PayoutRequest {
  amountCents: bigint;
  paymentMethod: PayoutMethod;
  /** Where to send, as the player typed it; written from the destination when left out. */
  paymentDetails?: string | undefined;
  phoneNumber: string;
  /** The structured destination (docs/payouts.md), its format already checked by the contract. */
  destination?: PayoutDestination | undefined;
}

/** The window of PAYOUT_DAILY_LIMIT: any 24 hours, not a calendar day. */
const PAYOUT_LIMIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What the player's payouts of the last 24 hours total, failed ones (money returned) aside. */
async function paidOutInWindow(uow: UnitOfWork, userId: number, now: Date): Promise<bigint> {
  const [row] = await uow.tx
    .select({ total: sql<string>`coalesce(sum(${payouts.amountCents}), 0)::text` })
    .from(payouts)
    .where(
      and(
        eq(payouts.userId, userId),
        ne(payouts.status, 'failed'),
        gt(payouts.createdAt, new Date(now.getTime() - PAYOUT_LIMIT_WINDOW_MS)),
      ),
    );
  return BigInt(row?.total ?? '0');
}

/**
 * The rules of docs/responsible-play.md before money leaves: an approved ID
 * (KYC_REQUIRED_FOR_PAYOUT), and at most PAYOUT_DAILY_LIMIT in any 24 hours. One player's requests
 * take a transaction-scoped advisory lock first, so two requests racing under the limit are judged
 * one after the other and never both pass; it conflicts with no row lock, so it adds no deadlock.
 */
async function requirePayoutAllowed(
  ctx: AppContext,
  uow: UnitOfWork,
  userId: number,
  amountCents: bigint,
): Promise<void> {
  await lockWithdrawalsOf(uow.tx, userId);
  // Shared, so that a card dispute's lock (which takes the row for update, and then returns the
  // payouts waiting) comes wholly before this request or wholly after it (docs/chargebacks.md).
  const user = await lockUser(uow.tx, userId, 'share');
  if (!user) throw new Error(`user ${userId} has a session but no row`);
  requireMoneyUnlocked(user);
  await requireWithdrawable(ctx, uow.tx, userId, amountCents);
  if (ctx.env.KYC_REQUIRED_FOR_PAYOUT && !(await hasApprovedIdentity(uow, userId))) {
    throw new AppError('IDENTITY_NOT_VERIFIED', PAYOUT_MESSAGES.identityRequired);
  }
  const limit = ctx.env.PAYOUT_DAILY_LIMIT;
  const used = await paidOutInWindow(uow, userId, ctx.clock());
  if (used + amountCents > limit) {
    const left = used >= limit ? 0n : limit - used;
    const message = PAYOUT_MESSAGES.dailyLimit(formatCents(limit), formatCents(left));
    throw new AppError('PAYOUT_LIMIT_EXCEEDED', message, { fields: { amount: message } });
  }
}

/**
 * The destination's coin must be one offered (PAYOUT_CURRENCIES), and the provider must accept
 * the address (docs/payouts.md): both before any money is held, each refused under its field.
 */
async function requireSendableDestination(
  ctx: AppContext,
  provider: PayoutProvider | null,
  destination: PayoutDestination,
): Promise<void> {
  const coin = findPayoutCoin(destination.currency);
  if (!coin || !ctx.env.PAYOUT_CURRENCIES.includes(coin.code)) {
    throw new AppError('VALIDATION_FAILED', PAYOUT_MESSAGES.coinNotOffered, {
      fields: { currency: PAYOUT_MESSAGES.coinNotOffered },
    });
  }
  if (!provider) return;
  let valid: boolean;
  try {
    valid = await provider.validateAddress(destination);
  } catch (error) {
    if (error instanceof PaymentProviderError) {
      throw new AppError('SERVICE_UNAVAILABLE', PAYOUT_MESSAGES.providerUnavailable);
    }
    throw error;
  }
  if (!valid) {
    const message = PAYOUT_ADDRESS_MESSAGES.addressInvalid(coin);
    throw new AppError('VALIDATION_FAILED', message, { fields: { address: message } });
  }
}

/** The SPEC's free-text details of a structured destination: "USDT (TRON) T…". */
export function detailsOf(destination: PayoutDestination): string {
  const coin = findPayoutCoin(destination.currency);
  const memo =
    destination.extraId && coin?.memo ? ` (${coin.memo.label} ${destination.extraId})` : '';
  return `${coin?.label ?? destination.currency.toUpperCase()} ${destination.address}${memo}`;
}

/**
 * Records a payout request and moves its amount from the wallet to `payout:hold:{id}` in the same
 * transaction (docs/payments.md), once the rules of docs/responsible-play.md allow it. The ledger
 * locks the wallet while it checks the balance, so concurrent requests are serialised and together
 * can never hold more than the balance; a refused hold rolls the row back with it. The rules of
 * docs/payouts.md then decide its stage: queued for the sender (which is woken once this commits),
 * or waiting for an admin with the reasons.
 */
export async function requestPayout(
  ctx: AppContext,
  sender: PayoutSender,
  userId: number,
  request: PayoutRequest,
): Promise<{ payout: Payout; balanceCents: bigint }> {
  const { destination } = request;
  if (destination) await requireSendableDestination(ctx, sender.provider, destination);
  const paymentDetails =
    request.paymentDetails || (destination ? detailsOf(destination) : undefined);
  if (!paymentDetails) throw new Error('the contract lets no request without details through');
  try {
    return await inTransaction(ctx.db, async (uow) => {
      await requirePayoutAllowed(ctx, uow, userId, request.amountCents);
      const now = ctx.clock();
      const [created] = await uow.tx
        .insert(payouts)
        .values({
          userId,
          amountCents: request.amountCents,
          paymentMethod: request.paymentMethod,
          paymentDetails,
          phoneNumber: request.phoneNumber,
          currency: destination?.currency ?? null,
          address: destination?.address ?? null,
          extraId: destination?.extraId ?? null,
          status: 'pending',
          createdAt: now,
        })
        .returning();
      if (!created) throw new Error('insert returned no payout');
      const result = await ctx.ledger.post(uow, {
        idempotencyKey: `payout:hold:${created.id}`,
        kind: 'payout_hold',
        reference: { type: 'payout', id: created.id },
        actorUserId: userId,
        entries: [
          { account: userWallet(userId), direction: 'debit', amountCents: request.amountCents },
          {
            account: payoutHold(created.id),
            direction: 'credit',
            amountCents: request.amountCents,
          },
        ],
      });
      const balanceCents = result.balancesAfter.get(userWallet(userId));
      if (balanceCents === undefined) throw new Error('the hold did not touch the wallet');
      const reasons = await reviewReasonsFor(ctx, uow, {
        userId,
        amountCents: request.amountCents,
        hasAddress: destination !== undefined,
        automatic: sender.provider !== null,
      });
      const [payout] = await uow.tx
        .update(payouts)
        .set(
          reasons.length === 0
            ? { stage: 'queued', stageReason: null, queuedAt: now, nextAttemptAt: now }
            : { stage: 'review', stageReason: reasons.join(REVIEW_REASON_SEPARATOR) },
        )
        .where(eq(payouts.id, created.id))
        .returning();
      if (!payout) throw new Error('the payout just made is gone');
      if (payout.stage === 'queued') uow.afterCommit(() => sender.wake());
      return { payout, balanceCents };
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE') {
      throw new AppError('INSUFFICIENT_BALANCE', PAYOUT_MESSAGES.insufficientBalance, {
        fields: { amount: PAYOUT_MESSAGES.insufficientBalance },
      });
    }
    throw error;
  }
}

/**
 * Locks a payout an admin may still decide by hand: pending and not yet with the provider. Once
 * a sender has it (`sending`, `sent`), only the provider's answer ends it: completing it by hand
 * could pay twice, failing it could refund money already on the chain.
 */
async function lockDecidable(uow: UnitOfWork, payoutId: number): Promise<Payout> {
  const payout = await lockPayout(uow.tx, payoutId);
  if (!payout) throw new AppError('NOT_FOUND', PAYOUT_MESSAGES.notFound);
  if (payout.status !== 'pending') {
    throw new AppError(
      'PAYOUT_NOT_PENDING',
      payout.status === 'completed'
        ? PAYOUT_MESSAGES.alreadyCompleted
        : PAYOUT_MESSAGES.alreadyFailed,
    );
  }
  if (payout.stage === 'sending' || payout.stage === 'sent') {
    throw new AppError('PAYOUT_NOT_PENDING', PAYOUT_MESSAGES.inFlight);
  }
  return payout;
}

/** An admin completes or fails a pending payout; the audit entry and the mail commit with it. */
export async function decidePayout(
  ctx: AppContext,
  payoutId: number,
  decision: PayoutDecision & { adminId: number },
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const payout = await lockDecidable(uow, payoutId);
    await endPayout(ctx, uow, payout, decision);
    await recordAudit(uow.tx, {
      actorUserId: decision.adminId,
      action: decision.outcome === 'complete' ? 'payout.complete' : 'payout.fail',
      target: { type: 'payout', id: payout.id },
      details: {
        userId: payout.userId,
        amountCents: payout.amountCents.toString(),
        paymentMethod: payout.paymentMethod,
      },
      reason: decision.outcome === 'complete' ? decision.note : decision.reason,
    });
  });
}

/**
 * An admin's APPROVE & SEND (docs/payouts.md): a payout waiting for review, with a coin address,
 * goes to the sender's queue as if the rules had let it through. The audit names the admin.
 */
export async function approvePayout(
  ctx: AppContext,
  sender: PayoutSender,
  payoutId: number,
  adminId: number,
): Promise<void> {
  await inTransaction(ctx.db, async (uow) => {
    const payout = await lockDecidable(uow, payoutId);
    if (payout.stage !== 'review') {
      throw new AppError('PAYOUT_NOT_PENDING', PAYOUT_MESSAGES.notInReview);
    }
    if (!payout.currency || !payout.address) {
      throw new AppError('CONFLICT', PAYOUT_MESSAGES.noAddress);
    }
    if (!sender.provider) throw new AppError('CONFLICT', PAYOUT_MESSAGES.automaticOff);
    const now = ctx.clock();
    await uow.tx
      .update(payouts)
      .set({
        stage: 'queued',
        stageReason: null,
        approvedBy: adminId,
        queuedAt: now,
        nextAttemptAt: now,
      })
      .where(eq(payouts.id, payout.id));
    await recordAudit(uow.tx, {
      actorUserId: adminId,
      action: 'payout.approve',
      target: { type: 'payout', id: payout.id },
      details: {
        userId: payout.userId,
        amountCents: payout.amountCents.toString(),
        currency: payout.currency,
      },
      reason: payout.stageReason ?? undefined,
    });
    await notifyStage(ctx, uow, payout, 'queued');
    uow.afterCommit(() => sender.wake());
  });
}
