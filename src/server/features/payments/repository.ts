import { and, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { cardDisputes } from '../../db/schema/card-disputes.ts';
import { cardRefunds } from '../../db/schema/card-refunds.ts';
import {
  payments,
  paymentWebhookEvents,
  type NewPayment,
  type Payment,
  type PaymentProviderName,
  type PaymentStatus,
} from '../../db/schema/payments.ts';
import { users } from '../../db/schema/users.ts';

/** Stores a new payment; a second insert of the same provider payment keeps the first row. */
export async function insertPayment(db: Executor, values: NewPayment): Promise<Payment> {
  const [inserted] = await db.insert(payments).values(values).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const existing = await findPayment(db, values.provider, values.providerPaymentId);
  if (!existing) throw new Error(`payment ${values.provider}:${values.providerPaymentId} vanished`);
  return existing;
}

export async function findPayment(
  db: Executor,
  provider: PaymentProviderName,
  providerPaymentId: string,
): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .limit(1);
  return row;
}

/** The player's payment made for the request that carried this `Idempotency-Key`. */
export async function findPaymentByRequestKey(
  db: Executor,
  userId: number,
  requestKey: string,
): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.requestKey, requestKey)))
    .limit(1);
  return row;
}

/**
 * Locks a payment row for the rest of the transaction: every path that may credit a payment
 * (confirm, webhook, IPN, poll) takes this lock first, so they run one after another. `for no
 * key update`, so that rows naming the payment (a card refund's) can still be written meanwhile.
 */
export async function lockPayment(
  db: Executor,
  provider: PaymentProviderName,
  providerPaymentId: string,
): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, providerPaymentId)))
    .limit(1)
    .for('no key update');
  return row;
}

/** A player's own payment: another player's id finds nothing. */
export async function findUserPayment(
  db: Executor,
  userId: number,
  provider: PaymentProviderName,
  providerPaymentId: string,
): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.provider, provider),
        eq(payments.providerPaymentId, providerPaymentId),
      ),
    )
    .limit(1);
  return row;
}

export async function updatePayment(
  db: Executor,
  id: number,
  changes: Partial<Omit<NewPayment, 'id'>>,
): Promise<Payment> {
  const [row] = await db.update(payments).set(changes).where(eq(payments.id, id)).returning();
  if (!row) throw new Error(`payment ${id} vanished during an update`);
  return row;
}

/** Records a webhook event; false when it was recorded before (a redelivery). */
export async function recordWebhookEvent(
  db: Executor,
  provider: PaymentProviderName,
  eventId: string,
  eventType: string,
): Promise<boolean> {
  const inserted = await db
    .insert(paymentWebhookEvents)
    .values({ provider, eventId, eventType })
    .onConflictDoNothing()
    .returning({ eventId: paymentWebhookEvents.eventId });
  return inserted.length > 0;
}

export interface AdminPaymentRow {
  payment: Payment;
  username: string;
}

/**
 * Payments for the admin, newest first: by default everything; `statuses` narrows it, e.g. to
 * `pending` and `partially_paid` (manual crypto notifications wait as `pending`).
 */
export async function listPaymentsForAdmin(
  db: Executor,
  options: {
    statuses?: readonly PaymentStatus[];
    providers?: readonly PaymentProviderName[];
    limit?: number;
    offset?: number;
  } = {},
): Promise<AdminPaymentRow[]> {
  const conditions: SQL[] = [];
  if (options.statuses) conditions.push(inArray(payments.status, [...options.statuses]));
  if (options.providers) conditions.push(inArray(payments.provider, [...options.providers]));
  return db
    .select({ payment: payments, username: users.username })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .where(and(...conditions))
    .orderBy(desc(payments.id))
    .limit(options.limit ?? 200)
    .offset(options.offset ?? 0);
}

/**
 * The player's card payments credited since `since`, newest first, each with what is still the
 * player's (what a dispute took back, or a card refund made or under way, is not): the card money
 * the payout rules and REFUND TO CARD look at (docs/chargebacks.md).
 */
export async function cardCreditsSince(
  db: Executor,
  userId: number,
  since: Date,
): Promise<Array<{ paymentId: number; creditedAt: Date; amountCents: bigint }>> {
  const rows = await db
    .select({
      paymentId: payments.id,
      creditedAt: payments.creditedAt,
      credited: payments.creditedAmountCents,
      disputed: cardDisputes.amountCents,
      refunded: sql<string>`(select coalesce(sum(${cardRefunds.amountCents}), 0)::text
        from ${cardRefunds} where ${cardRefunds.paymentId} = ${payments.id}
          and ${cardRefunds.status} <> 'failed')`,
    })
    .from(payments)
    .leftJoin(cardDisputes, eq(cardDisputes.paymentId, payments.id))
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.method, 'card'),
        eq(payments.status, 'credited'),
        gte(payments.creditedAt, since),
      ),
    )
    .orderBy(desc(payments.creditedAt));
  return rows.flatMap((row) => {
    const amountCents = (row.credited ?? 0n) - (row.disputed ?? 0n) - BigInt(row.refunded);
    return row.creditedAt && amountCents > 0n
      ? [{ paymentId: row.paymentId, creditedAt: row.creditedAt, amountCents }]
      : [];
  });
}
