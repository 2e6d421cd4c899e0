import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  cryptoStatusResponseSchema,
  type CryptoStatusResponse,
} from '#shared/contracts/payments.ts';
import { getJson } from '#client/lib/api-client.ts';

export const cryptoStatusQueryKey = ['payments', 'crypto-status'] as const;

/** Whether crypto deposits are switched on and their provider answers. */
export function getCryptoStatus(signal?: AbortSignal): Promise<CryptoStatusResponse> {
  return getJson('/api/crypto-status', cryptoStatusResponseSchema, signal);
}

export function cryptoStatusQueryOptions() {
  return queryOptions({
    queryKey: cryptoStatusQueryKey,
    queryFn: ({ signal }) => getCryptoStatus(signal),
  });
}

export function useCryptoStatus() {
  return useQuery(cryptoStatusQueryOptions());
}
