import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments, type Payment, type PaymentProviderName } from '../../db/schema/payments.ts';
import { startPeriodicWorker } from '../../lib/periodic-worker.ts';
import { UNPAID_INTENT_STATUSES } from './providers/types.ts';
import { endUnpaidIntent, logMismatch, type PaymentDeps } from './service.ts';
import { cardUpdate, cryptoUpdate, settlePayment, type UpdateResult } from './settle.ts';

/**
 * Payments whose webhook never came and whose player never returned (closed tab, lost network)
 * would stay pending although the provider took the money. The reconciliation worker asks the
 * provider about every pending payment, first two minutes after it was made (the default of
 * `next_check_at`), then after 4, 8, 16… minutes, at most an hour apart, for a week.
 *
 * A card payment still unpaid after a checkout's time is cancelled at the provider and failed here
 * (docs/responsible-play.md): until then it holds the player's deposit limits, and once cancelled
 * it can never be paid outside them. Its checks include one at that moment.
 */
export const CARD_CHECKOUT_MS = 30 * 60 * 1000;
export const RECONCILE_BATCH = 25;
const FIRST_WAIT_SECONDS = 120;
const LONGEST_WAIT_SECONDS = 3600;
const GIVE_UP_AFTER_MS = 7 * 24 * 60 * 60_000;

export interface ReconcileReport {
  checked: number;
  credited: number;
  failed: number;
}

/**
 * Claims the due pending payments of the configured providers and moves each one's next check
 * forward in the same statement's transaction, rows locked with `SKIP LOCKED`: several instances
 * running this at once take disjoint payments.
 */
export async function claimDuePayments(
  db: Database,
  providers: readonly PaymentProviderName[],
  now: Date,
): Promise<Payment[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.status, 'pending'),
          lte(payments.nextCheckAt, now),
          gt(payments.createdAt, new Date(now.getTime() - GIVE_UP_AFTER_MS)),
          inArray(payments.provider, [...providers]),
        ),
      )
      .orderBy(payments.nextCheckAt)
      .limit(RECONCILE_BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(payments)
      .set({
        checks: sql`${payments.checks} + 1`,
        // The wait doubles with each check already made (the exponent is capped so it cannot
        // overflow): 4, 8, 16… minutes, then hourly.
        // A card payment is also checked when its checkout's time ends.
        nextCheckAt: sql`least(
          ${now.toISOString()}::timestamptz + make_interval(secs => least(${FIRST_WAIT_SECONDS} * power(2, least(${payments.checks} + 1, 12)), ${LONGEST_WAIT_SECONDS})),
          case when ${payments.method} = 'card'
            and ${payments.createdAt} + make_interval(secs => ${CARD_CHECKOUT_MS / 1000}) > ${now.toISOString()}::timestamptz
            then ${payments.createdAt} + make_interval(secs => ${CARD_CHECKOUT_MS / 1000})
            else 'infinity'::timestamptz end)`,
      })
      .where(
        inArray(
          payments.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
  });
}

/**
 * Asks the provider about one payment and settles what it says, exactly as a webhook would; ends
 * a card payment left unpaid past its checkout.
 */
async function checkPayment(deps: PaymentDeps, payment: Payment, now: Date): Promise<UpdateResult> {
  const { ctx, providers } = deps;
  if (payment.provider === providers.card.name) {
    const intent = await providers.card.retrieveIntent(payment.providerPaymentId);
    const checkoutOver = now.getTime() - payment.createdAt.getTime() >= CARD_CHECKOUT_MS;
    if (checkoutOver && UNPAID_INTENT_STATUSES.has(intent.status)) {
      return endUnpaidIntent(deps, intent.id);
    }
    return settlePayment(ctx, cardUpdate(providers.card.name, intent, { recordIfMissing: false }));
  }
  const record = await providers.crypto.getPayment(payment.providerPaymentId);
  return settlePayment(ctx, cryptoUpdate(providers.crypto.name, record));
}

/** One pass of the worker over the payments due now; one payment's failure spares the rest. */
export async function reconcileDuePayments(
  deps: PaymentDeps,
  now: Date = deps.ctx.clock(),
): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, credited: 0, failed: 0 };
  const { ctx, providers } = deps;
  const due = await claimDuePayments(ctx.db, [providers.card.name, providers.crypto.name], now);
  for (const payment of due) {
    try {
      const result = await checkPayment(deps, payment, now);
      report.checked += 1;
      logMismatch(deps, result, 'reconciliation');
      if (result.kind === 'applied' && result.credited && !result.replayed) {
        report.credited += 1;
        deps.log.info({ paymentId: payment.id }, 'pending payment credited by reconciliation');
      }
    } catch (error) {
      report.failed += 1;
      deps.log.warn(
        { err: error, paymentId: payment.id, checks: payment.checks },
        'payment reconciliation failed; will ask again later',
      );
    }
  }
  return report;
}

/** Runs `reconcileDuePayments` on an interval until stopped (see `startPeriodicWorker`). */
export function startPaymentReconciliation(
  deps: PaymentDeps,
  intervalMs: number,
): () => Promise<void> {
  const { stop } = startPeriodicWorker({
    pass: async () => {
      const report = await reconcileDuePayments(deps);
      return report.checked + report.failed;
    },
    batch: RECONCILE_BATCH,
    intervalMs,
    onError: (error) => deps.log.error({ err: error }, 'payment reconciliation failed'),
  });
  return stop;
}
