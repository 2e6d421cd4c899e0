import { eq } from 'drizzle-orm';
import type { CryptoPaymentStatus } from '#shared/contracts/payments.ts';
import type { AppContext } from '../../context.ts';
import type { Payment, PaymentProviderName, PaymentStatus } from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction, type UnitOfWork } from '../../db/transaction.ts';
import { EXTERNAL_CARD, EXTERNAL_CRYPTO, HOUSE_UNCLAIMED, userWallet } from '../ledger/index.ts';
import type { CardIntent, CryptoPaymentRecord } from './providers/types.ts';
import { insertPayment, lockPayment, updatePayment } from './repository.ts';

/** What a provider's record says happened, in our words. */
export type PaymentOutcome = 'pending' | 'paid' | 'partially_paid' | 'expired' | 'failed';

/** One report from a provider about one payment: a confirm, a webhook, an IPN or a poll. */
export interface PaymentUpdate {
  provider: PaymentProviderName;
  providerPaymentId: string;
  providerStatus: string;
  outcome: PaymentOutcome;
  /** The player the provider's record names; null when the provider does not know (crypto). */
  ownerUserId: number | null;
  /** The currency of the provider's amounts: a payment is credited only in ours (usd). */
  currency: string;
  /**
   * Card: the amount the provider received, which is what is credited. Crypto: absent, and
   * the requested amount is credited once the provider's price is checked to equal it.
   */
  receivedCents?: bigint;
  /** Crypto: the price on the provider's record, which must equal our requested amount. */
  priceCents?: bigint;
  actuallyPaid?: string | null;
  /**
   * A card payment the provider knows but we have no row for (the process stopped between the
   * provider call and our insert): it is recorded from the provider's record and then settled.
   */
  recordIfMissing?: { userId: number; requestedCents: bigint };
}

export type UpdateResult =
  /** No payment of ours has this id. */
  | { kind: 'unknown' }
  /** The provider's record disagrees with ours (owner, currency, price): nothing is credited. */
  | { kind: 'mismatch'; payment: Payment; reason: string }
  | { kind: 'applied'; payment: Payment; credited: boolean; replayed: boolean };

const CRYPTO_OUTCOMES: Record<CryptoPaymentStatus, PaymentOutcome> = {
  waiting: 'pending',
  confirming: 'pending',
  // Confirmed on the blockchain: the coins are ours even while NOWPayments forwards them.
  confirmed: 'paid',
  sending: 'paid',
  finished: 'paid',
  partially_paid: 'partially_paid',
  expired: 'expired',
  failed: 'failed',
  refunded: 'failed',
};

export function cardUpdate(
  provider: 'stripe' | 'sandbox-card',
  intent: CardIntent,
  options: { recordIfMissing: boolean },
): PaymentUpdate {
  const outcome: PaymentOutcome =
    intent.status === 'succeeded' ? 'paid' : intent.status === 'canceled' ? 'failed' : 'pending';
  return {
    provider,
    providerPaymentId: intent.id,
    providerStatus: intent.status,
    outcome,
    ownerUserId: intent.userId,
    currency: intent.currency,
    receivedCents: intent.amountReceivedCents,
    ...(options.recordIfMissing && intent.userId !== null
      ? { recordIfMissing: { userId: intent.userId, requestedCents: intent.amountCents } }
      : {}),
  };
}

export function cryptoUpdate(
  provider: 'nowpayments' | 'sandbox-crypto',
  record: CryptoPaymentRecord,
): PaymentUpdate {
  return {
    provider,
    providerPaymentId: record.id,
    providerStatus: record.status,
    outcome: CRYPTO_OUTCOMES[record.status],
    ownerUserId: null,
    currency: record.priceCurrency,
    priceCents: record.priceAmountCents,
    actuallyPaid: record.actuallyPaid,
  };
}

function mismatchOf(payment: Payment, update: PaymentUpdate): string | null {
  if (update.ownerUserId !== null && update.ownerUserId !== payment.userId) {
    return `provider names user ${update.ownerUserId}, our row user ${payment.userId}`;
  }
  if (update.currency !== payment.currency) {
    return `provider currency ${update.currency}, ours ${payment.currency}`;
  }
  if (update.priceCents !== undefined && update.priceCents !== payment.requestedAmountCents) {
    return `provider price ${update.priceCents} cents, requested ${payment.requestedAmountCents}`;
  }
  return null;
}

/**
 * Applies a provider's report to our payment row inside the caller's transaction, crediting the
 * wallet when the provider says it is paid. The row is locked first, and the ledger transfer's
 * key is `deposit:{provider}:{providerPaymentId}`: however many confirms, webhooks, IPNs and
 * polls race, one payment credits once, and the row's status changes in the same transaction.
 */
export async function applyPaymentUpdate(
  ctx: AppContext,
  uow: UnitOfWork,
  update: PaymentUpdate,
): Promise<UpdateResult> {
  const { tx } = uow;
  const now = ctx.clock();
  let payment = await lockPayment(tx, update.provider, update.providerPaymentId);
  if (!payment && update.recordIfMissing) {
    await insertPayment(tx, {
      provider: update.provider,
      method: 'card',
      providerPaymentId: update.providerPaymentId,
      userId: update.recordIfMissing.userId,
      requestedAmountCents: update.recordIfMissing.requestedCents,
      currency: update.currency,
      status: 'pending',
      providerStatus: update.providerStatus,
      createdAt: now,
      updatedAt: now,
    });
    payment = await lockPayment(tx, update.provider, update.providerPaymentId);
  }
  if (!payment) return { kind: 'unknown' };

  const mismatch = mismatchOf(payment, update);
  if (mismatch) return { kind: 'mismatch', payment, reason: mismatch };

  if (payment.status === 'credited') {
    // A credited payment stays credited; only a later paid status (confirmed → finished) or a
    // refund is worth remembering, so that a late, stale report cannot make it look unpaid.
    const remember = update.outcome === 'paid' || update.providerStatus === 'refunded';
    if (remember && update.providerStatus !== payment.providerStatus) {
      payment = await updatePayment(tx, payment.id, {
        providerStatus: update.providerStatus,
        updatedAt: now,
      });
    }
    return { kind: 'applied', payment, credited: true, replayed: true };
  }

  const extras = update.actuallyPaid != null ? { actuallyPaid: update.actuallyPaid } : {};
  if (update.outcome === 'paid') {
    const amountCents = update.receivedCents ?? payment.requestedAmountCents;
    if (amountCents <= 0n) {
      return { kind: 'mismatch', payment, reason: `paid with ${amountCents} cents received` };
    }
    // The owner's row is read under a share lock so that an account deletion in flight finishes
    // first; money paid for a deleted account goes where its balance went, not to a dead wallet.
    const [owner] = await tx
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, payment.userId))
      .for('share');
    const destination = owner?.deletedAt ? HOUSE_UNCLAIMED : userWallet(payment.userId);
    const transfer = await ctx.ledger.post(uow, {
      idempotencyKey: `deposit:${payment.provider}:${payment.providerPaymentId}`,
      kind: 'deposit',
      reference: { type: 'payment', id: payment.id },
      entries: [
        {
          account: payment.method === 'card' ? EXTERNAL_CARD : EXTERNAL_CRYPTO,
          direction: 'debit',
          amountCents,
        },
        { account: destination, direction: 'credit', amountCents },
      ],
    });
    payment = await updatePayment(tx, payment.id, {
      status: 'credited',
      providerStatus: update.providerStatus,
      creditedAmountCents: amountCents,
      ledgerTransferId: transfer.transferId,
      creditedAt: now,
      updatedAt: now,
      ...extras,
    });
    return { kind: 'applied', payment, credited: true, replayed: transfer.replayed };
  }

  // A partial payment keeps waiting for the admin even if a stale "waiting" report comes later.
  const status: PaymentStatus =
    update.outcome === 'pending' && payment.status === 'partially_paid'
      ? 'partially_paid'
      : update.outcome;
  payment = await updatePayment(tx, payment.id, {
    status,
    providerStatus: update.providerStatus,
    updatedAt: now,
    ...extras,
  });
  return { kind: 'applied', payment, credited: false, replayed: false };
}

/** `applyPaymentUpdate` in a transaction of its own. */
export function settlePayment(ctx: AppContext, update: PaymentUpdate): Promise<UpdateResult> {
  return inTransaction(ctx.db, (uow) => applyPaymentUpdate(ctx, uow, update));
}
