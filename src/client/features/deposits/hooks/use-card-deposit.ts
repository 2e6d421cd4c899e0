import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Cents } from '#shared/money.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { transactionsQueryKey } from '#client/features/wallet/api/get-transactions.ts';
import { depositByCard, type ConfirmWithProvider } from '../lib/card-deposit.ts';
import { DEPOSIT_TITLES, depositSuccessMessage } from '../lib/deposit-messages.ts';

/**
 * Runs a card deposit with the provider the form supplies (Stripe.js or the sandbox). Its data is
 * the outcome: the panel shows a failure in the card error panel and a success in place.
 */
export function useCardDeposit(amountCents: Cents) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmWithProvider: ConfirmWithProvider) =>
      depositByCard(amountCents, confirmWithProvider),
    onSuccess: (outcome) => {
      if (outcome.kind !== 'succeeded') return;
      toast({ title: DEPOSIT_TITLES.success, description: depositSuccessMessage(outcome.amount) });
      // The account socket usually brings the new balance first; this covers a lost socket.
      void refreshSessionUser(queryClient);
      void queryClient.invalidateQueries({ queryKey: transactionsQueryKey });
    },
  });
}
