import { queryOptions, useQuery } from '@tanstack/react-query';
import { paymentsConfigResponseSchema, type PaymentsConfig } from '#shared/contracts/payments.ts';
import { getJson } from '#client/lib/api-client.ts';

export const paymentsConfigQueryKey = ['payments', 'config'] as const;

/** Which card and crypto providers run, so the dialog knows Stripe from the TEST MODE sandbox. */
export function getPaymentsConfig(signal?: AbortSignal): Promise<PaymentsConfig> {
  return getJson('/api/payments/config', paymentsConfigResponseSchema, signal);
}

export function paymentsConfigQueryOptions() {
  return queryOptions({
    queryKey: paymentsConfigQueryKey,
    queryFn: ({ signal }) => getPaymentsConfig(signal),
  });
}

export function usePaymentsConfig() {
  return useQuery(paymentsConfigQueryOptions());
}
