import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import {
  closeAccountResponseSchema,
  type CloseAccountBody,
  type CloseAccountResponse,
} from '#shared/contracts/account-data.ts';
import { postJson } from '#client/lib/api-client.ts';
import { formatDollars } from '#client/lib/format.ts';
import { dismissToast } from '#client/lib/toast.ts';
import { setSessionUser } from '#client/features/auth/api/session-cache.ts';
import { leaveSignedOutNotice } from '#client/features/auth/lib/signed-out-notice.ts';

/**
 * Closes the player's own account (docs/responsible-play.md); the server signs every device out.
 */
export function closeAccount(body: CloseAccountBody): Promise<CloseAccountResponse> {
  return postJson('/api/me/close', body, closeAccountResponseSchema);
}

/** What the login page tells the player once their account is closed. */
export function closedAccountNotice({ message, unclaimed }: CloseAccountResponse) {
  return {
    title: 'ACCOUNT CLOSED',
    description:
      unclaimed > 0
        ? `${message} The ${formatDollars(unclaimed)} left in it went to the operator's unclaimed funds.`
        : message,
  };
}

/**
 * On success the player is signed out here at once (the server has ended every session) and
 * lands on the login page, which says the account is closed.
 */
export function useCloseAccount() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: closeAccount,
    onSuccess: (closed) => {
      // A toast about the account (its balance swept to $0.00, say) is news of nobody now.
      dismissToast();
      leaveSignedOutNotice(closedAccountNotice(closed));
      // Nobody is signed in any more, and nothing cached of the account may stay on screen.
      setSessionUser(queryClient, null);
      navigate('/auth', { replace: true });
    },
  });
}
