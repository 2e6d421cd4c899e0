import { cryptoPaymentStatusSchema } from '#shared/contracts/payments.ts';
import { centsToDollarNumber, parseAmount } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import { createNowPaymentsClient } from './nowpayments-client.ts';
import { PaymentProviderError, type CryptoPaymentRecord, type CryptoProvider } from './types.ts';

export interface NowPaymentsOptions {
  apiKey: string;
  /** Origin of the API, without `/v1`: https://api.nowpayments.io, or the sandbox's. */
  apiBase: string;
  /** The coin players are asked to send, e.g. `btc`. */
  payCurrency: string;
  /** Where NOWPayments sends IPNs; without it, the URL set in its dashboard is used. */
  ipnCallbackUrl?: string | undefined;
  timeoutMs?: number;
}

/**
 * NOWPayments writes decimal amounts as JSON numbers. They are only shown (crypto to send) or
 * compared to the price we set, never computed with, so they are kept as their plain decimal
 * text; a tiny amount that JavaScript would print as "1e-7" is written out in full.
 */
function decimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

const paymentIdSchema = z.union([z.string().regex(/^\d{1,30}$/), z.number().int().nonnegative()]);

/** The fields of a payment that NOWPayments sends on creation, on look-up and in an IPN. */
export const nowPaymentSchema = z.object({
  payment_id: paymentIdSchema.transform(String),
  payment_status: cryptoPaymentStatusSchema,
  pay_address: z.string().min(1),
  price_amount: z.number().positive(),
  price_currency: z.string().min(1),
  pay_amount: z.number().nonnegative(),
  pay_currency: z.string().min(1),
  actually_paid: z.number().nonnegative().nullish(),
  order_id: z.string().nullish(),
  expiration_estimate_date: z.string().nullish(),
  valid_until: z.string().nullish(),
});
export type NowPayment = z.infer<typeof nowPaymentSchema>;

const apiStatusSchema = z.object({ message: z.string() });

function parseDate(text: string | null | undefined): Date | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A NOWPayments payment in the adapter's terms; a malformed price is refused. */
export function toCryptoPaymentRecord(payment: NowPayment): CryptoPaymentRecord {
  const price = parseAmount(payment.price_amount);
  if (!price.ok) {
    throw new PaymentProviderError(
      'unavailable',
      `NOWPayments sent a price that is not a dollar amount: ${payment.price_amount}`,
    );
  }
  return {
    id: payment.payment_id,
    status: payment.payment_status,
    priceAmountCents: price.cents,
    priceCurrency: payment.price_currency.toLowerCase(),
    payAmount: decimalText(payment.pay_amount),
    payCurrency: payment.pay_currency.toLowerCase(),
    payAddress: payment.pay_address,
    actuallyPaid:
      payment.actually_paid === undefined || payment.actually_paid === null
        ? null
        : decimalText(payment.actually_paid),
    orderId: payment.order_id ?? null,
    expiresAt: parseDate(payment.expiration_estimate_date ?? payment.valid_until),
  };
}

export interface NowPaymentsProvider extends CryptoProvider {
  readonly name: 'nowpayments';
  readonly mode: 'nowpayments';
}

/** Crypto deposits through the NOWPayments REST API (`/v1/payment`, `/v1/status`), via fetch. */
export function createNowPaymentsProvider(options: NowPaymentsOptions): NowPaymentsProvider {
  const client = createNowPaymentsClient({
    apiKey: options.apiKey,
    apiBase: options.apiBase,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    // An amount under NOWPayments' minimum is the player's to change; anything else is retried.
    refusalKind: (status, problem) =>
      status === 400 && /AMOUNT_MINIMAL_ERROR|too small/i.test(problem)
        ? 'amount_too_small'
        : 'unavailable',
  });
  const request = (method: 'GET' | 'POST', path: string, body?: object) =>
    client.call(method, path, body ? { body } : {});

  function parsePayment(json: unknown, what: string): CryptoPaymentRecord {
    return toCryptoPaymentRecord(client.parse(nowPaymentSchema, json, what));
  }

  return {
    name: 'nowpayments',
    mode: 'nowpayments',
    payCurrency: options.payCurrency,

    async createPayment({ userId, amountCents, orderId }) {
      const json = await request('POST', '/v1/payment', {
        price_amount: centsToDollarNumber(amountCents),
        price_currency: 'usd',
        pay_currency: options.payCurrency,
        order_id: orderId,
        order_description: `Deposit for player ${userId}`,
        ...(options.ipnCallbackUrl ? { ipn_callback_url: options.ipnCallbackUrl } : {}),
      });
      return parsePayment(json, 'payment');
    },

    async getPayment(id) {
      if (!/^\d{1,30}$/.test(id)) {
        throw new PaymentProviderError('not_found', `${id} is not a NOWPayments payment id`);
      }
      return parsePayment(await request('GET', `/v1/payment/${id}`), 'payment');
    },

    async isAvailable() {
      try {
        const parsed = apiStatusSchema.safeParse(await request('GET', '/v1/status'));
        return parsed.success && parsed.data.message.toUpperCase() === 'OK';
      } catch (error) {
        if (error instanceof PaymentProviderError) return false;
        throw error;
      }
    },
  };
}
