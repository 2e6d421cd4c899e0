import type { QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { AccountSocket, accountSocketUrl, type AccountEvent } from '#client/lib/account-socket.ts';
import { notificationsQueryKey } from '#client/features/notifications/api/notifications.ts';
import { formatDollars } from '#client/lib/format.ts';
import { readAgain } from '#client/lib/query-client.ts';
import { toast } from '#client/lib/toast.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';
import { refreshSessionUser, setCachedBalance } from '#client/features/auth/api/session-cache.ts';
import { challengeCountsQueryKey } from '#client/features/challenges/api/get-challenge-counts.ts';
import { challengeDetailsQueryKey } from '#client/features/challenges/api/get-challenge.ts';
import { challengeListsQueryKey } from '#client/features/challenges/api/get-challenges.ts';
import { invalidateChallenge } from '#client/features/challenges/api/invalidate-challenges.ts';
import { transactionsQueryKey } from '#client/features/wallet/api/get-transactions.ts';
import { payoutsQueryKey } from '#client/features/payouts/api/get-payouts.ts';
import { cardRefundsQueryKey } from '#client/features/payouts/api/card-refunds.ts';
import { payoutLimitsQueryKey } from '#client/features/payouts/api/get-payout-limits.ts';
import { tournamentsQueryKey } from '#shared/page-data.ts';

/**
 * What an account event changes on screen. BALANCE_UPDATE replaces the cached balance
 * (docs/product.md#states) and the wallet history it came from; CHALLENGE_UPDATED refreshes every
 * list, the counts and that challenge's page, so nobody has to reload to see an opponent's move;
 * news of a suspension brings the banner that explains it.
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
      void readAgain(queryClient, transactionsQueryKey);
      // A failed payout returns its amount: the history shows the new status with it.
      void readAgain(queryClient, payoutsQueryKey);
      toast({
        title: 'Balance Updated',
        description: `Your new balance is ${formatDollars(event.newBalance)}`,
      });
      return;
    case 'CHALLENGE_UPDATED':
      void invalidateChallenge(queryClient, event.challengeId);
      return;
    case 'TOURNAMENT_UPDATED':
      // Joins, results and advances change the lists and the bracket (docs/tournaments.md).
      void readAgain(queryClient, tournamentsQueryKey);
      return;
    case 'NOTIFICATION':
      // The bell's count and list read afresh. A suspension or money lock set or lifted, or a
      // break taken in another tab, changes what the app offers, so the user is read again too.
      void readAgain(queryClient, notificationsQueryKey);
      // A payout moved on its way out (docs/payouts.md): the payouts page shows its new stage.
      if (event.notification.kind.startsWith('payout_'))
        void readAgain(queryClient, payoutsQueryKey);
      // A refund to a card was made, or refused and returned (docs/chargebacks.md).
      if (event.notification.kind.startsWith('card_refund_')) {
        void readAgain(queryClient, cardRefundsQueryKey);
        void readAgain(queryClient, payoutLimitsQueryKey);
      }
      if (
        event.notification.kind === 'account_suspended' ||
        event.notification.kind === 'suspension_lifted' ||
        event.notification.kind === 'play_break_started' ||
        event.notification.kind === 'money_locked' ||
        event.notification.kind === 'money_lock_lifted'
      ) {
        void refreshSessionUser(queryClient);
      }
      return;
  }
}

/**
 * Everything the events above keep fresh, read again once the socket is open. The server sends an
 * event only to the sockets open when it happens, and a page reads its user and its lists before
 * its socket opens (the socket waits for the first paint and its own chunk): a balance credited,
 * or a challenge posted, in between reached nobody here, and since reads never go stale the page
 * never showed it. A reconnected socket missed whatever happened while it was down in the same
 * way. Read from now on, the data is at least as new as the first event the socket can bring.
 */
export function readAgainAfterConnect(queryClient: QueryClient): void {
  for (const queryKey of [
    userQueryKey,
    transactionsQueryKey,
    payoutsQueryKey,
    challengeListsQueryKey,
    challengeCountsQueryKey,
    challengeDetailsQueryKey,
    notificationsQueryKey,
    tournamentsQueryKey,
  ]) {
    void readAgain(queryClient, queryKey);
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
    onOpen: () => readAgainAfterConnect(queryClient),
    onSessionEnded: () => void refreshSessionUser(queryClient),
  });
  socket.start();
  return () => socket.stop();
}
