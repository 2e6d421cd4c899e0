import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_BALANCE_MESSAGES,
  adminBalanceResponseSchema,
  signedAmountSchema,
} from '#shared/contracts/wallet.ts';
import { centsToDecimalString, type Cents } from '#shared/money.ts';
import { postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { setCachedBalance } from '#client/features/auth/api/session-cache.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminUsersQueryKey } from './get-admin-users.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export type BalanceChangeCheck = { ok: true; amountCents: Cents } | { ok: false; message: string };

/**
 * The product's admin balance rules (docs/product.md#validation), in its words: a user must be
 * chosen, and the amount must be a signed decimal ("25", "-3.50"). The shared schema adds the
 * server's own limits (not zero, at most $1,000,000, two decimals).
 */
export function checkBalanceChange(userId: number | null, amountText: string): BalanceChangeCheck {
  if (userId === null) return { ok: false, message: ADMIN_BALANCE_MESSAGES.selectUser };
  const parsed = signedAmountSchema.safeParse(amountText);
  if (!parsed.success) {
    return {
      ok: false,
      message: parsed.error.issues[0]?.message ?? ADMIN_BALANCE_MESSAGES.amountInvalid,
    };
  }
  return { ok: true, amountCents: parsed.data };
}

export interface AdjustBalanceInput {
  userId: number;
  username: string;
  amountCents: Cents;
  reason?: string | undefined;
}

export function adjustBalance({ userId, amountCents, reason }: AdjustBalanceInput) {
  return postJson(
    `/api/admin/users/${userId}/balance`,
    { amount: centsToDecimalString(amountCents), ...(reason ? { reason } : {}) },
    adminBalanceResponseSchema,
  );
}

export function useAdjustBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adjustBalance,
    onSuccess: ({ balance }, { userId, username }) => {
      toast({
        title: 'Balance updated',
        description: `${username}'s balance is now ${formatDollars(balance)}.`,
      });
      // An admin may adjust their own wallet: their top bar follows.
      setCachedBalance(queryClient, userId, balance);
      void refreshAdminViews(queryClient, [adminUsersQueryKey]);
    },
    onError: (error) => adminErrorToast(error, ADMIN_BALANCE_MESSAGES.failed),
  });
}
