import type { PaymentRecord } from '#shared/contracts/account-data.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { Payment } from '../../db/schema/payments.ts';

/** A deposit as its player (in their data export) and the admins (on the player page) see it. */
export function toPaymentRecord(payment: Payment): PaymentRecord {
  return {
    id: payment.id,
    method: payment.method,
    provider: payment.provider,
    providerPaymentId: payment.providerPaymentId,
    status: payment.status,
    requestedAmount: centsToDollarNumber(payment.requestedAmountCents),
    creditedAmount:
      payment.creditedAmountCents === null
        ? null
        : centsToDollarNumber(payment.creditedAmountCents),
    currency: payment.currency,
    payCurrency: payment.payCurrency,
    payAmount: payment.payAmount,
    payAddress: payment.payAddress,
    actuallyPaid: payment.actuallyPaid,
    createdAt: payment.createdAt.toISOString(),
    creditedAt: payment.creditedAt?.toISOString() ?? null,
    expiresAt: payment.expiresAt?.toISOString() ?? null,
  };
}
