import { queryOptions, useQuery } from '@tanstack/react-query';
import { sessionViewSchema, type SessionView } from '#shared/contracts/account-security.ts';
import { getJson } from '#client/lib/api-client.ts';

export const sessionsQueryKey = ['profile', 'sessions'] as const;

const sessionListSchema = sessionViewSchema.array();

/**
 * The player's signed-in browsers: this one first, then the most recent
 * (docs/accounts.md#account-security).
 */
export function getSessions(signal?: AbortSignal): Promise<SessionView[]> {
  return getJson('/api/user/sessions', sessionListSchema, signal);
}

/** The name a device goes by in the list: its browser, when it sent one. */
export function deviceName(session: SessionView): string {
  return session.browser ?? 'Unknown browser';
}

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: ({ signal }) => getSessions(signal),
  });
}

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
