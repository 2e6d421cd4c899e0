import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '#shared/contracts/payments.ts';
import { PAYOUT_MESSAGES } from '#shared/contracts/payouts.ts';
import type { AppContext } from '../../context.ts';
import { payouts, type Payout, type PayoutStage } from '../../db/schema/payouts.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { startPeriodicWorker, type PeriodicWorker } from '../../lib/periodic-worker.ts';
import { PaymentProviderError, verifyNowPaymentsSignature } from '../payments/index.ts';
import { nowWithdrawalSchema, toWithdrawal } from './providers/nowpayments-payout-provider.ts';
import type { PayoutProvider, Withdrawal } from './providers/types.ts';
import { lockPayout } from './repository.ts';
import { endPayout, notifyStage } from './stages.ts';

/** How long a claim holds a payout: longer than one attempt's calls, each cut at 15 s. */
export const CLAIM_LEASE_MS = 2 * 60_000;
/** A pass handles at most this many payouts before the worker looks at the clock again. */
export const SENDER_BATCH = 20;
/** A queued payout larger than the provider's balance looks again after this long. */
export const BALANCE_RECHECK_MS = 5 * 60_000;
const FIRST_WAIT_MS = 15_000;
const LONGEST_WAIT_MS = 15 * 60_000;
/** How far before its queueing the look-up by external id searches (clocks differ). */
const LOOKUP_MARGIN_MS = 60 * 60_000;

export const SENDER_REASONS = {
  balanceShort: 'waiting for the provider balance',
  refused: (detail: string) => `The payout provider refused it (${detail})`,
  failed: (detail: string | null) =>
    detail
      ? `The payout provider could not send it (${detail})`
      : 'The payout provider could not send it',
  simulated: 'Failed in the sandbox (TEST MODE)',
} as const;

/** The wait before the next look at a payout: 15 s, doubling with each attempt, at most 15 min. */
export function nextWaitMs(attempts: number): number {
  return Math.min(FIRST_WAIT_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 10), LONGEST_WAIT_MS);
}

/** The id the provider files the withdrawal under: the payout's, unique across databases too. */
export function externalIdOf(payout: Pick<Payout, 'id' | 'createdAt'>): string {
  return `payout-${payout.id}-${payout.createdAt.getTime()}`;
}

const STAGE_ORDER: readonly PayoutStage[] = ['review', 'queued', 'sending', 'sent'];

/**
 * Claims the next due payout, if any: queued or being sent whose time has come, or sent and due
 * for a status poll. The claim moves its next look a lease away, names a token that every later
 * write of this attempt must still find, and makes a queued payout `sending`: an admin's
 * COMPLETE, FAIL or an account's deletion, which lock the same row, can no longer end it while
 * the sender may be creating its withdrawal.
 */
export async function claimNextPayout(ctx: AppContext): Promise<Payout | null> {
  const now = ctx.clock();
  return ctx.db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(inArray(payouts.stage, ['queued', 'sending', 'sent']), lte(payouts.nextAttemptAt, now)),
      )
      .orderBy(asc(payouts.nextAttemptAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return null;
    const [claimed] = await tx
      .update(payouts)
      .set({
        claimToken: randomUUID(),
        attempts: sql`${payouts.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
        // From here on a withdrawal may exist at the provider: no hand may decide it any more.
        stage: sql`case when ${payouts.stage} = 'queued' then 'sending' else ${payouts.stage} end`,
      })
      .where(eq(payouts.id, due.id))
      .returning();
    return claimed ?? null;
  });
}

/**
 * Runs `write` on the payout under its row lock if this claim still holds it and it is still
 * pending; answers whether it ran. A sender whose lease lapsed finds another token and stops.
 */
async function whileClaimed(
  ctx: AppContext,
  payoutId: number,
  token: string | null,
  write: (uow: UnitOfWork, payout: Payout) => Promise<void>,
): Promise<boolean> {
  return inTransaction(ctx.db, async (uow) => {
    const payout = await lockPayout(uow.tx, payoutId);
    if (!payout || payout.status !== 'pending') return false;
    if (token !== null && payout.claimToken !== token) return false;
    await write(uow, payout);
    return true;
  });
}

/**
 * Brings the payout up to what the provider says of its withdrawal, never backwards: finished
 * completes it (hold → `external:crypto`), failed fails it (hold → wallet), on its way with a
 * hash is `sent`, otherwise it is `sending`. A sender's claim (`token`) ends here with the next
 * poll's time; an IPN (`token` null) leaves the claim and the schedule to the sender.
 */
export async function applyWithdrawal(
  ctx: AppContext,
  payoutId: number,
  withdrawal: Withdrawal,
  token: string | null,
): Promise<boolean> {
  return whileClaimed(ctx, payoutId, token, async (uow, payout) => {
    const now = ctx.clock();
    const hash = withdrawal.hash ?? payout.txHash;
    if (withdrawal.state === 'finished' || withdrawal.state === 'failed') {
      await uow.tx
        .update(payouts)
        .set({ txHash: hash, sentAt: payout.sentAt ?? (hash ? now : null) })
        .where(eq(payouts.id, payout.id));
      await endPayout(
        ctx,
        uow,
        payout,
        withdrawal.state === 'finished'
          ? { outcome: 'complete', adminId: null, note: hash ? `tx ${hash}` : undefined }
          : { outcome: 'fail', adminId: null, reason: SENDER_REASONS.failed(withdrawal.error) },
      );
      return;
    }
    const reached: PayoutStage = withdrawal.state === 'processing' && hash ? 'sent' : 'sending';
    const stage =
      STAGE_ORDER.indexOf(reached) > STAGE_ORDER.indexOf(payout.stage) ? reached : payout.stage;
    await uow.tx
      .update(payouts)
      .set({
        stage,
        stageReason: null,
        txHash: hash,
        sentAt: stage === 'sent' ? (payout.sentAt ?? now) : payout.sentAt,
        ...(token === null
          ? {}
          : {
              claimToken: null,
              nextAttemptAt: new Date(now.getTime() + nextWaitMs(payout.attempts)),
            }),
      })
      .where(eq(payouts.id, payout.id));
    if (stage !== payout.stage) await notifyStage(ctx, uow, payout, stage);
  });
}

/** Whether the provider holds less of the coin than the payout needs. */
async function balanceShort(
  provider: PayoutProvider,
  currency: string,
  coinAmount: string,
): Promise<boolean> {
  const balance = (await provider.balances()).find((row) => row.currency === currency);
  return !balance || Number(balance.amount) < Number(coinAmount);
}

/**
 * One attempt at a claimed payout. The provider is asked first for a withdrawal already made
 * for it (by its recorded id, else by its external id); only when there is none is one made,
 * at the provider's estimate, and recorded. An unverified one is verified with a fresh 2FA code;
 * then the payout follows the withdrawal's state. A provider that cannot be reached leaves the
 * payout to be tried again after a growing wait; a creation the provider refuses (nothing was
 * made) fails the payout and returns the money.
 */
export async function attemptPayout(
  ctx: AppContext,
  provider: PayoutProvider,
  claimed: Payout,
  log: FastifyBaseLogger,
): Promise<void> {
  const token = claimed.claimToken;
  const { currency, address } = claimed;
  if (!token || !currency || !address) throw new Error(`payout ${claimed.id} is not sendable`);
  let made = claimed.providerPayoutId !== null;
  // Whether a creation was ever asked of the provider for this payout before this attempt (its
  // answer may have been lost): then "the look-up found none" is not proof that none exists.
  const askedBefore = claimed.provider !== null;
  let creating = false;
  try {
    let withdrawal =
      claimed.providerPayoutId && claimed.providerBatchId
        ? await provider.getWithdrawal({
            id: claimed.providerPayoutId,
            batchId: claimed.providerBatchId,
          })
        : await provider.findWithdrawal(
            externalIdOf(claimed),
            new Date((claimed.queuedAt ?? claimed.createdAt).getTime() - LOOKUP_MARGIN_MS),
          );
    if (withdrawal) made = true;
    let estimate = { coinAmount: claimed.coinAmount, coinRate: claimed.coinRate };
    if (!withdrawal) {
      const quote = await provider.estimate(claimed.amountCents, currency);
      if (await balanceShort(provider, currency, quote.coinAmount)) {
        // Never asked to create: the payout is queued again, and an admin may decide it by hand.
        // Asked before, it stays `sending`: the first withdrawal may yet show up.
        await whileClaimed(ctx, claimed.id, token, async (uow) => {
          await uow.tx
            .update(payouts)
            .set({
              stage: askedBefore ? 'sending' : 'queued',
              stageReason: SENDER_REASONS.balanceShort,
              coinAmount: quote.coinAmount,
              coinRate: quote.rate,
              claimToken: null,
              nextAttemptAt: new Date(ctx.clock().getTime() + BALANCE_RECHECK_MS),
            })
            .where(eq(payouts.id, claimed.id));
        });
        log.warn({ payoutId: claimed.id, currency }, 'payout waits: provider balance too low');
        return;
      }
      // Right before the call: the claim must still be this sender's, its lease starts again
      // (so no other sender can claim while the call runs), and the row records that a creation
      // was asked for.
      const renewed = await whileClaimed(ctx, claimed.id, token, async (uow) => {
        await uow.tx
          .update(payouts)
          .set({
            provider: provider.name,
            nextAttemptAt: new Date(ctx.clock().getTime() + CLAIM_LEASE_MS),
          })
          .where(eq(payouts.id, claimed.id));
      });
      if (!renewed) return;
      creating = true;
      withdrawal = await provider.createWithdrawal({
        destination: { currency, address, extraId: claimed.extraId },
        coinAmount: quote.coinAmount,
        externalId: externalIdOf(claimed),
      });
      made = true;
      estimate = { coinAmount: quote.coinAmount, coinRate: quote.rate };
    }
    const found = withdrawal;
    const recorded = await whileClaimed(ctx, claimed.id, token, async (uow, payout) => {
      await uow.tx
        .update(payouts)
        .set({
          provider: provider.name,
          providerPayoutId: found.id,
          providerBatchId: found.batchId,
          coinAmount: found.amount || estimate.coinAmount,
          coinRate: estimate.coinRate,
          stageReason: null,
        })
        .where(eq(payouts.id, payout.id));
      await notifyStage(ctx, uow, payout, 'sending');
    });
    if (!recorded) return;
    if (withdrawal.state === 'unverified') {
      await provider.verify(withdrawal.batchId);
      withdrawal = { ...withdrawal, state: 'processing' };
    }
    await applyWithdrawal(ctx, claimed.id, withdrawal, token);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    // Only the creation's own refusal, with no creation ever asked before, proves nothing left.
    if (error.kind === 'declined' && creating && !made && !askedBefore) {
      await whileClaimed(ctx, claimed.id, token, (uow, payout) =>
        endPayout(ctx, uow, payout, {
          outcome: 'fail',
          adminId: null,
          reason: SENDER_REASONS.refused(error.message),
        }),
      );
      log.warn({ err: error, payoutId: claimed.id }, 'payout refused by the provider');
      return;
    }
    await whileClaimed(ctx, claimed.id, token, async (uow) => {
      await uow.tx
        .update(payouts)
        .set({
          claimToken: null,
          nextAttemptAt: new Date(ctx.clock().getTime() + nextWaitMs(claimed.attempts)),
        })
        .where(eq(payouts.id, claimed.id));
    });
    log.warn({ err: error, payoutId: claimed.id }, 'payout attempt failed; it will be retried');
  }
}

/** One pass of the sender: claims and attempts due payouts one by one; answers how many. */
export async function runSenderPass(
  ctx: AppContext,
  provider: PayoutProvider,
  log: FastifyBaseLogger,
): Promise<number> {
  let handled = 0;
  while (handled < SENDER_BATCH) {
    const claimed = await claimNextPayout(ctx);
    if (!claimed) break;
    await attemptPayout(ctx, provider, claimed, log);
    handled += 1;
  }
  return handled;
}

export function startPayoutSender(
  ctx: AppContext,
  provider: PayoutProvider,
  log: FastifyBaseLogger,
  intervalMs: number,
): PeriodicWorker {
  return startPeriodicWorker({
    pass: () => runSenderPass(ctx, provider, log),
    batch: SENDER_BATCH,
    intervalMs,
    onError: (error) => log.error({ err: error }, 'payout sender pass failed'),
  });
}

const EXTERNAL_ID = /^payout-([1-9]\d{0,9})-(\d{1,15})$/;

/**
 * A NOWPayments payout IPN (docs/payouts.md): signed like the deposit IPNs, applied like a poll's
 * answer. A withdrawal whose creation the sender never recorded (it died in between) is matched
 * by its external id, and its ids are recorded with it. Unknown or unusable ones are
 * acknowledged and logged, so that NOWPayments stops resending them.
 */
export async function handlePayoutIpn(
  ctx: AppContext,
  log: FastifyBaseLogger,
  input: { rawBody: Buffer; signature: string | undefined },
): Promise<void> {
  const secret = ctx.env.NOWPAYMENTS_IPN_SECRET;
  if (!secret) {
    log.error('a NOWPayments payout IPN arrived but NOWPAYMENTS_IPN_SECRET is not set');
    throw new AppError('SERVICE_UNAVAILABLE', PAYMENT_MESSAGES.cryptoUnavailable);
  }
  let body: unknown;
  try {
    body = JSON.parse(input.rawBody.toString('utf8'));
  } catch {
    throw new AppError('VALIDATION_FAILED', 'The body is not valid JSON.');
  }
  if (!verifyNowPaymentsSignature(body, input.signature, secret)) {
    log.warn('NOWPayments payout IPN refused: bad signature');
    throw new AppError('INVALID_SIGNATURE', PAYMENT_MESSAGES.invalidSignature);
  }
  const parsed = nowWithdrawalSchema.safeParse(body);
  let withdrawal: Withdrawal;
  try {
    if (!parsed.success) throw new PaymentProviderError('unavailable', 'unexpected shape');
    withdrawal = toWithdrawal(parsed.data);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    log.warn({ err: error }, 'NOWPayments payout IPN ignored');
    return;
  }
  const payoutId = await inTransaction(ctx.db, async (uow) => {
    const [byId] = await uow.tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.provider, 'nowpayments'), eq(payouts.providerPayoutId, withdrawal.id)));
    if (byId) return byId.id;
    const match = EXTERNAL_ID.exec(withdrawal.externalId ?? '');
    if (!match?.[1]) return null;
    const payout = await lockPayout(uow.tx, Number(match[1]));
    if (!payout || externalIdOf(payout) !== withdrawal.externalId) return null;
    if (payout.providerPayoutId) {
      // Ours, but not the withdrawal recorded for it: a second one was made for one payout.
      log.error(
        { payoutId: payout.id, recorded: payout.providerPayoutId, withdrawalId: withdrawal.id },
        'a second NOWPayments withdrawal exists for one payout: check it by hand',
      );
      return null;
    }
    await uow.tx
      .update(payouts)
      .set({
        provider: 'nowpayments',
        providerPayoutId: withdrawal.id,
        providerBatchId: withdrawal.batchId,
        coinAmount: withdrawal.amount,
        stage: payout.stage === 'queued' ? 'sending' : payout.stage,
      })
      .where(eq(payouts.id, payout.id));
    return payout.id;
  });
  if (payoutId === null) {
    log.warn(
      { withdrawalId: withdrawal.id },
      'NOWPayments payout IPN for an unknown payout ignored',
    );
    return;
  }
  // An IPN of a withdrawal still waiting for its code says nothing new: the sender verifies it.
  if (withdrawal.state !== 'unverified') await applyWithdrawal(ctx, payoutId, withdrawal, null);
}

/**
 * The sandbox's simulate route (docs/payouts.md): an admin ends a sandbox withdrawal before it
 * finishes by itself, as the provider's answer would.
 */
export async function simulateSandboxPayout(
  ctx: AppContext,
  payoutId: number,
  status: 'finished' | 'failed',
): Promise<void> {
  const [payout] = await ctx.db.select().from(payouts).where(eq(payouts.id, payoutId)).limit(1);
  if (!payout) throw new AppError('NOT_FOUND', PAYOUT_MESSAGES.notFound);
  if (payout.status !== 'pending') {
    throw new AppError(
      'PAYOUT_NOT_PENDING',
      payout.status === 'completed'
        ? PAYOUT_MESSAGES.alreadyCompleted
        : PAYOUT_MESSAGES.alreadyFailed,
    );
  }
  if (payout.provider !== 'sandbox' || !payout.providerPayoutId || !payout.providerBatchId) {
    throw new AppError('CONFLICT', PAYOUT_MESSAGES.notSandbox);
  }
  await applyWithdrawal(
    ctx,
    payout.id,
    {
      id: payout.providerPayoutId,
      batchId: payout.providerBatchId,
      state: status,
      providerStatus: status,
      currency: payout.currency ?? '',
      amount: payout.coinAmount ?? '',
      hash: payout.txHash,
      error: status === 'failed' ? SENDER_REASONS.simulated : null,
      externalId: externalIdOf(payout),
    },
    null,
  );
}
