import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  sandboxCryptoSimulateResponseSchema,
  type CryptoPaymentStatus,
  type SandboxCryptoPayment,
  type SandboxCryptoSimulation,
} from '#shared/contracts/payments.ts';
import { postJson } from '#client/lib/api-client.ts';
import { sandboxCryptoPaymentQueryKey } from './get-sandbox-crypto-payment.ts';

/** Plays the blockchain for a sandbox payment: it takes `status`, and a paid one is credited. */
export async function simulateSandboxCrypto(
  paymentId: string,
  status: SandboxCryptoSimulation,
): Promise<CryptoPaymentStatus> {
  const result = await postJson(
    `/api/sandbox/crypto/${encodeURIComponent(paymentId)}/simulate`,
    { status },
    sandboxCryptoSimulateResponseSchema,
  );
  return result.status;
}

export function useSimulateSandboxCrypto(paymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: SandboxCryptoSimulation) => simulateSandboxCrypto(paymentId, status),
    onSuccess: (status) => {
      queryClient.setQueryData<SandboxCryptoPayment | null>(
        sandboxCryptoPaymentQueryKey(paymentId),
        (payment) => (payment ? { ...payment, status } : payment),
      );
    },
  });
}
