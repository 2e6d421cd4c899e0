import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  sandboxCryptoPaymentSchema,
  type SandboxCryptoPayment,
} from '#shared/contracts/payments.ts';
import { ApiError, getJson } from '#client/lib/api-client.ts';

export function sandboxCryptoPaymentQueryKey(paymentId: string) {
  return ['payments', 'sandbox-crypto', paymentId] as const;
}

/**
 * A sandbox crypto payment as its owner's test checkout shows it, or null when there is none
 * (another player's, or a real provider is configured and the sandbox routes are off: 404).
 */
export async function getSandboxCryptoPayment(
  paymentId: string,
  signal?: AbortSignal,
): Promise<SandboxCryptoPayment | null> {
  try {
    return await getJson(
      `/api/sandbox/crypto/${encodeURIComponent(paymentId)}`,
      sandboxCryptoPaymentSchema,
      signal,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function sandboxCryptoPaymentQueryOptions(paymentId: string) {
  return queryOptions({
    queryKey: sandboxCryptoPaymentQueryKey(paymentId),
    queryFn: ({ signal }) => getSandboxCryptoPayment(paymentId, signal),
  });
}

export function useSandboxCryptoPayment(paymentId: string) {
  return useQuery(sandboxCryptoPaymentQueryOptions(paymentId));
}
