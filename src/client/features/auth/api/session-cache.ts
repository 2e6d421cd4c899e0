import type { QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { userQueryKey } from './get-user.ts';

/**
 * Records who is signed in after a login, registration or logout. Everything else cached belongs
 * to the previous session (its challenges, payouts, admin lists), so it is dropped rather than
 * shown to the next person at this browser.
 */
export function setSessionUser(queryClient: QueryClient, user: PublicUser | null): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== userQueryKey[0] });
  queryClient.setQueryData(userQueryKey, user);
}

/**
 * Puts a balance the server just reported (a realtime update, a settled challenge) into the
 * cached user, if that user is still the one signed in; with its split into available and under
 * review when the report has it (docs/fair-play.md).
 */
export function setCachedBalance(
  queryClient: QueryClient,
  userId: number,
  balance: number,
  split?: { available: number; underReview: number },
): void {
  queryClient.setQueryData<PublicUser | null>(userQueryKey, (user) =>
    user && user.id === userId ? { ...user, balance, ...split } : user,
  );
  // A read of the user under way (asked for after a mutation, or as the socket opened) may have
  // been answered before this balance was: landing now, it would put the older balance back, for
  // good, as reads never go stale. Started again, it reads this balance or a newer one.
  if (queryClient.isFetching({ queryKey: userQueryKey }) > 0) {
    void queryClient.refetchQueries({ queryKey: userQueryKey });
  }
}

/** Asks the server again who is signed in and with what balance. */
export function refreshSessionUser(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: userQueryKey });
}

/**
 * After a refusal because the account is suspended (docs/fair-play.md), on a break
 * (docs/responsible-play.md, taken in another tab) or its money locked (docs/chargebacks.md): the
 * pause may be newer than the page, so the user is read again, and the banner that explains it
 * appears.
 */
export function refreshIfSuspended(queryClient: QueryClient, error: unknown): void {
  if (
    error instanceof ApiError &&
    (error.code === 'ACCOUNT_SUSPENDED' ||
      error.code === 'PLAY_PAUSED' ||
      error.code === 'MONEY_LOCKED')
  ) {
    void refreshSessionUser(queryClient);
  }
}
