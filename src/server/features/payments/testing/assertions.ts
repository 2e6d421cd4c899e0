import { and, eq } from 'drizzle-orm';
import type { DatabaseHandle } from '../../../db/client.ts';
import { ledgerTransfers } from '../../../db/schema/ledger.ts';
import type { Payment, PaymentProviderName } from '../../../db/schema/payments.ts';
import { findPayment } from '../repository.ts';

/** A signed-in agent's balance in dollars, as the API shows it. */
export async function balanceOf(agent: {
  get(url: string): Promise<{ json<T>(): T }>;
}): Promise<number> {
  return (await agent.get('/api/user')).json<{ balance: number }>().balance;
}

/** How many deposit transfers credit one provider payment (exactly once means 1). */
export async function depositTransfers(
  database: DatabaseHandle,
  provider: PaymentProviderName,
  providerPaymentId: string,
): Promise<number> {
  const payment = await paymentRow(database, provider, providerPaymentId);
  const rows = await database.db
    .select({ id: ledgerTransfers.id })
    .from(ledgerTransfers)
    .where(
      and(
        eq(ledgerTransfers.kind, 'deposit'),
        eq(ledgerTransfers.referenceType, 'payment'),
        eq(ledgerTransfers.referenceId, String(payment.id)),
      ),
    );
  return rows.length;
}

export async function paymentRow(
  database: DatabaseHandle,
  provider: PaymentProviderName,
  providerPaymentId: string,
): Promise<Payment> {
  const row = await findPayment(database.db, provider, providerPaymentId);
  if (!row) throw new Error(`no payment row ${provider}:${providerPaymentId}`);
  return row;
}
