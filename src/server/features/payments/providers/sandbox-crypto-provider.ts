import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  cryptoPaymentStatusSchema,
  PAYMENT_MESSAGES,
  type CryptoPaymentStatus,
  type SandboxCryptoSimulation,
} from '#shared/contracts/payments.ts';
import type { Database } from '../../../db/client.ts';
import { sandboxPayments, type SandboxPayment } from '../../../db/schema/payments.ts';
import { AppError } from '../../../errors.ts';
import { PaymentProviderError, type CryptoPaymentRecord, type CryptoProvider } from './types.ts';

export interface SandboxCryptoProvider extends CryptoProvider {
  readonly name: 'sandbox-crypto';
  readonly mode: 'sandbox';
  /** The owner's view of a sandbox payment, for the local checkout page. */
  getOwnPayment(id: string, userId: number): Promise<CryptoPaymentRecord>;
  /** Plays the blockchain: the payment takes `status`, as NOWPayments would report it. */
  simulate(
    id: string,
    userId: number,
    status: SandboxCryptoSimulation,
  ): Promise<CryptoPaymentRecord>;
}

/** How long a sandbox payment waits for its coins, like a NOWPayments estimate. */
const SANDBOX_CRYPTO_LIFETIME_MS = 20 * 60_000;

/**
 * A fixed make-believe price of $50,000 per BTC, so that every cent converts to exactly 20
 * satoshis and the amounts shown are reproducible.
 */
const SATOSHIS_PER_CENT = 20n;
const SANDBOX_PAY_CURRENCY = 'btc';
const SATOSHIS_PER_BTC = 100_000_000n;
const BECH32_CHARS = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const PAID: ReadonlySet<CryptoPaymentStatus> = new Set(['confirmed', 'sending', 'finished']);

function btcText(satoshis: bigint): string {
  const whole = satoshis / SATOSHIS_PER_BTC;
  const fraction = (satoshis % SATOSHIS_PER_BTC).toString().padStart(8, '0');
  return `${whole}.${fraction}`;
}

/** A testnet-looking address (tb1q…): clearly not one to send real coins to. */
function sandboxAddress(): string {
  let address = 'tb1q';
  for (let index = 0; index < 38; index += 1) address += BECH32_CHARS[randomInt(32)];
  return address;
}

function toRecord(row: SandboxPayment): CryptoPaymentRecord {
  return {
    id: row.id,
    status: cryptoPaymentStatusSchema.parse(row.status),
    priceAmountCents: row.amountCents,
    priceCurrency: row.currency,
    payAmount: row.payAmount ?? '0',
    payCurrency: row.payCurrency ?? 'btc',
    payAddress: row.payAddress ?? '',
    actuallyPaid: row.actuallyPaid,
    orderId: null,
    expiresAt: row.expiresAt,
  };
}

/**
 * The offline stand-in for NOWPayments (docs/payments.md): payments live in `sandbox_payments`; a
 * waiting payment expires after 20 minutes; `simulate` is the only way coins "arrive".
 */
export function createSandboxCryptoProvider(
  db: Database,
  clock: () => Date,
): SandboxCryptoProvider {
  async function find(id: string): Promise<SandboxPayment> {
    const [row] = await db
      .select()
      .from(sandboxPayments)
      .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.kind, 'crypto')))
      .limit(1);
    if (!row) throw new PaymentProviderError('not_found', `No sandbox payment ${id}`);
    // Like NOWPayments, a payment nobody paid in time expires by itself.
    if (row.status === 'waiting' && row.expiresAt && row.expiresAt <= clock()) {
      const [expired] = await db
        .update(sandboxPayments)
        .set({ status: 'expired', updatedAt: clock() })
        .where(and(eq(sandboxPayments.id, id), eq(sandboxPayments.status, 'waiting')))
        .returning();
      return expired ?? find(id);
    }
    return row;
  }

  async function findOwn(id: string, userId: number): Promise<SandboxPayment> {
    const row = await find(id);
    if (row.userId !== userId) {
      throw new PaymentProviderError('not_found', PAYMENT_MESSAGES.paymentNotFound);
    }
    return row;
  }

  return {
    name: 'sandbox-crypto',
    mode: 'sandbox',
    payCurrency: SANDBOX_PAY_CURRENCY,

    async createPayment({ userId, amountCents }) {
      const now = clock();
      // Twelve digits, like NOWPayments' numeric ids; the primary key catches the rare repeat.
      const id = String(randomInt(100_000_000_000, 999_999_999_999));
      const [row] = await db
        .insert(sandboxPayments)
        .values({
          id,
          kind: 'crypto',
          userId,
          amountCents,
          currency: 'usd',
          status: 'waiting',
          payCurrency: SANDBOX_PAY_CURRENCY,
          payAmount: btcText(amountCents * SATOSHIS_PER_CENT),
          payAddress: sandboxAddress(),
          expiresAt: new Date(now.getTime() + SANDBOX_CRYPTO_LIFETIME_MS),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error(`sandbox payment ${id} was not stored`);
      return toRecord(row);
    },

    async getPayment(id) {
      return toRecord(await find(id));
    },

    async getOwnPayment(id, userId) {
      return toRecord(await findOwn(id, userId));
    },

    async simulate(id, userId, status) {
      const row = await findOwn(id, userId);
      const current = cryptoPaymentStatusSchema.parse(row.status);
      if (PAID.has(current)) {
        if (PAID.has(status)) return toRecord(row);
        throw new AppError('CONFLICT', 'This sandbox payment has already been paid.');
      }
      const paySatoshis = row.amountCents * SATOSHIS_PER_CENT;
      const actuallyPaid =
        status === 'partially_paid'
          ? btcText(paySatoshis / 2n)
          : PAID.has(status)
            ? btcText(paySatoshis)
            : row.actuallyPaid;
      const [updated] = await db
        .update(sandboxPayments)
        .set({ status, actuallyPaid, updatedAt: clock() })
        .where(eq(sandboxPayments.id, id))
        .returning();
      if (!updated) throw new Error(`sandbox payment ${id} vanished`);
      return toRecord(updated);
    },

    async isAvailable() {
      return true;
    },
  };
}
