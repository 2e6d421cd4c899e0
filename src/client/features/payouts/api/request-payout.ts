import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  payoutRequestResponseSchema,
  type PayoutRequestResponse,
  type payoutRequestBodySchema,
} from '#shared/contracts/payouts.ts';
import { centsToDecimalString } from '#shared/money.ts';
import type { z } from '#shared/validation.ts';
import { ApiError, postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { setCachedBalance } from '#client/features/auth/api/session-cache.ts';
import { payoutsQueryKey } from './get-payouts.ts';

/** The form's output: the amount already parsed into cents by the shared schema. */
export type RequestPayoutInput = z.output<typeof payoutRequestBodySchema>;

export const PAYOUT_FAILED_FALLBACK = 'An error occurred while processing your payout';

/** The amount travels as exact decimal text ("12.50"): cents never pass through a float. */
export function requestPayout(input: RequestPayoutInput): Promise<PayoutRequestResponse> {
  return postJson(
    '/api/payouts',
    { ...input, amount: centsToDecimalString(input.amount) },
    payoutRequestResponseSchema,
  );
}

export function useRequestPayout(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestPayout,
    onSuccess: ({ payout, balance }) => {
      toast({
        title: 'PAYOUT REQUESTED',
        description: `${formatDollars(payout.amount)} is on hold while your payout is processed.`,
      });
      // The amount left the wallet for the hold: the top bar shows it at once.
      setCachedBalance(queryClient, userId, balance);
      void queryClient.invalidateQueries({ queryKey: payoutsQueryKey });
    },
    onError: (error) => {
      toast({
        title: 'PAYOUT FAILED',
        // docs/product.md#messages: the server's message, or the generic one when no answer came
        // back.
        description: error instanceof ApiError ? error.message : PAYOUT_FAILED_FALLBACK,
        variant: 'destructive',
      });
    },
  });
}
