import {
  confirmPaymentResponseSchema,
  type ConfirmPaymentResponse,
} from '#shared/contracts/payments.ts';
import { centsToDecimalString, type Cents } from '#shared/money.ts';
import { postJson } from '#client/lib/api-client.ts';

/**
 * Asks the server to credit a paid card intent. The amount is sent because docs/product.md#calls
 * lists it; the server credits the provider's own record of the payment and answers with what it
 * credited.
 */
export function confirmPayment(
  paymentIntentId: string,
  amountCents: Cents,
): Promise<ConfirmPaymentResponse> {
  return postJson(
    '/api/confirm-payment',
    { paymentIntentId, amount: centsToDecimalString(amountCents) },
    confirmPaymentResponseSchema,
  );
}
