import {
  createPaymentIntentResponseSchema,
  type CreatePaymentIntentResponse,
} from '#shared/contracts/payments.ts';
import { centsToDecimalString, type Cents } from '#shared/money.ts';
import { apiFetch } from '#client/lib/api-client.ts';
import { readPaymentResponse } from '../lib/payment-response.ts';

/**
 * Opens a card payment for the amount. The amount travels as exact decimal text ("25.00"). An
 * answer without a clientSecret throws InvalidPaymentResponseError (docs/product.md#messages).
 */
export async function createPaymentIntent(
  amountCents: Cents,
): Promise<CreatePaymentIntentResponse> {
  const response = await apiFetch('POST', '/api/create-payment-intent', {
    body: { amount: centsToDecimalString(amountCents) },
  });
  return readPaymentResponse(response, createPaymentIntentResponseSchema);
}
