import {
  cryptoPaymentResponseSchema,
  type CryptoPaymentResponse,
} from '#shared/contracts/payments.ts';
import { centsToDecimalString, type Cents } from '#shared/money.ts';
import { apiFetch } from '#client/lib/api-client.ts';
import { readPaymentResponse } from '../lib/payment-response.ts';

/**
 * Creates a crypto payment: the coin amount, the address to pay and when the offer expires. An
 * answer without a paymentId throws InvalidPaymentResponseError (docs/product.md#messages).
 */
export async function createCryptoPayment(amountCents: Cents): Promise<CryptoPaymentResponse> {
  const response = await apiFetch('POST', '/api/create-crypto-payment', {
    body: { amount: centsToDecimalString(amountCents) },
  });
  return readPaymentResponse(response, cryptoPaymentResponseSchema);
}
