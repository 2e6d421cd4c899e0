import {
  checkCryptoPaymentResponseSchema,
  type CryptoPaymentStatus,
} from '#shared/contracts/payments.ts';
import { getJson } from '#client/lib/api-client.ts';

/**
 * Asks the provider, through the server, where a crypto payment stands; the server credits a
 * finished one as it answers. Polled by useCryptoPaymentStatus rather than a query: its 429
 * countdown and its stop on a final status are a small state machine of their own.
 */
export async function checkCryptoPayment(
  paymentId: string,
  signal?: AbortSignal,
): Promise<CryptoPaymentStatus> {
  const { status } = await getJson(
    `/api/check-crypto-payment/${encodeURIComponent(paymentId)}`,
    checkCryptoPaymentResponseSchema,
    signal,
  );
  return status;
}
