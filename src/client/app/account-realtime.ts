import type { QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { AccountSocket, accountSocketUrl, type AccountEvent } from '#client/lib/account-socket.ts';
import { notificationsQueryKey } from '#client/features/notifications/api/notifications.ts';
import { formatDollars } from '#client/lib/format.ts';
import { toast } from '#client/lib/toast.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { refreshSessionUser, setCachedBalance } from '#client/features/auth/api/session-cache.ts';
import { invalidateChallenge } from '#client/features/challenges/api/invalidate-challenges.ts';
import { transactionsQueryKey } from '#client/features/wallet/api/get-transactions.ts';
import { payoutsQueryKey } from '#client/features/payouts/api/get-payouts.ts';

/**
 * What an account event changes on screen. BALANCE_UPDATE replaces the cached balance (SPEC §4)
 * and the wallet history it came from; CHALLENGE_UPDATED refreshes every list, the counts and
 * that challenge's page, so nobody has to reload to see an opponent's move; news of a suspension
 * brings the banner that explains it.
 */
export function applyAccountEvent(
  queryClient: QueryClient,
  currentUserId: number,
  event: AccountEvent,
): void {
  switch (event.type) {
    case 'BALANCE_UPDATE':
      if (event.userId !== currentUserId) return;
      // Signed out here already (the account just closed, its wallet swept): no news for anyone.
      if (queryClient.getQueryData<PublicUser | null>(userQueryKey)?.id !== event.userId) return;
      setCachedBalance(
        queryClient,
        event.userId,
        event.newBalance,
        event.available !== undefined && event.underReview !== undefined
          ? { available: event.available, underReview: event.underReview }
          : undefined,
      );
      void queryClient.invalidateQueries({ queryKey: transactionsQueryKey });
      // A failed payout returns its amount: the history shows the new status with it.
      void queryClient.invalidateQueries({ queryKey: payoutsQueryKey });
      toast({
        title: 'Balance Updated',
        description: `Your new balance is ${formatDollars(event.newBalance)}`,
      });
      return;
    case 'CHALLENGE_UPDATED':
      void invalidateChallenge(queryClient, event.challengeId);
      return;
    case 'NOTIFICATION':
      // The bell's count and list read afresh. A suspension set or lifted changes what the app
      // offers, so the user is read again too.
      void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
      if (
        event.notification.kind === 'account_suspended' ||
        event.notification.kind === 'suspension_lifted'
      ) {
        void refreshSessionUser(queryClient);
      }
      return;
  }
}

/**
 * Opens the account socket for the signed-in user and returns what closes it. The server ending
 * the session makes the app find out whether anyone is still signed in here.
 */
export function connectAccountRealtime(queryClient: QueryClient, userId: number): () => void {
  const socket = new AccountSocket({
    url: accountSocketUrl(window.location),
    onEvent: (event) => applyAccountEvent(queryClient, userId, event),
    onSessionEnded: () => void refreshSessionUser(queryClient),
  });
  socket.start();
  return () => socket.stop();
}
