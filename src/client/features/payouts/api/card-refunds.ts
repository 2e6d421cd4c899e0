import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cardRefundResponseSchema,
  cardRefundSchema,
  type cardRefundBodySchema,
} from '#shared/contracts/card-refunds.ts';
import { centsToDecimalString } from '#shared/money.ts';
import { z } from '#shared/validation.ts';
import { ApiError, getJson, requestJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { setCachedBalance } from '#client/features/auth/api/session-cache.ts';
import { payoutLimitsQueryKey } from './get-payout-limits.ts';

export const cardRefundsQueryKey = ['card-refunds'] as const;

export const CARD_REFUND_FAILED_FALLBACK = 'An error occurred while processing your refund';

/** The player's refunds to their cards, newest first (docs/chargebacks.md). */
export function useCardRefunds() {
  return useQuery(
    queryOptions({
      queryKey: cardRefundsQueryKey,
      queryFn: ({ signal }) =>
        getJson('/api/payouts/card-refunds', z.array(cardRefundSchema), signal),
    }),
  );
}

export type CardRefundInput = z.output<typeof cardRefundBodySchema> & {
  /** One per opening of the dialog: a resent request is answered with the first refunds. */
  requestKey: string;
};

/** REFUND TO CARD: the amount travels as exact decimal text, as a payout's does. */
export function useRefundToCard(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CardRefundInput) =>
      requestJson('POST', '/api/payouts/card-refund', cardRefundResponseSchema, {
        body: { amount: centsToDecimalString(input.amount) },
        idempotencyKey: input.requestKey,
      }),
    onSuccess: ({ balance, message }) => {
      toast({ title: 'REFUND REQUESTED', description: message });
      setCachedBalance(queryClient, userId, balance);
      void queryClient.invalidateQueries({ queryKey: cardRefundsQueryKey });
      void queryClient.invalidateQueries({ queryKey: payoutLimitsQueryKey });
    },
    onError: (error) => {
      toast({
        title: 'REFUND FAILED',
        description: error instanceof ApiError ? error.message : CARD_REFUND_FAILED_FALLBACK,
        variant: 'destructive',
      });
    },
  });
}
