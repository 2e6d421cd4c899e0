import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicUserSchema, type PublicUser } from '#shared/contracts/auth.ts';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';
import { ApiError, getJson } from '#client/lib/api-client.ts';

/** The cache key of the signed-in user. Realtime balance updates write through it too. */
export const userQueryKey = ['user'] as const;

/** The signed-in user, or null when there is no session (SPEC §4: 401 means anonymous). */
export async function getUser(signal?: AbortSignal): Promise<PublicUser | null> {
  try {
    return await getJson('/api/user', publicUserSchema, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw new Error('Failed to fetch user', { cause: error });
  }
}

/**
 * The user the server named in the page it sent (null: nobody is signed in), or undefined when it
 * did not say (the development server, a server that could not check the session) or said
 * something unreadable: then the client asks GET /api/user.
 */
export function userFromPage(page: Document): PublicUser | null | undefined {
  const text = page.getElementById(SESSION_USER_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const parsed = publicUserSchema.nullable().safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: ({ signal }) => getUser(signal),
  });
}

export interface UserState {
  /** Null while loading, when signed out, and when the user could not be fetched (SPEC §8). */
  user: PublicUser | null;
  isLoading: boolean;
  /**
   * False only until the first answer about the session (a user, nobody, or a failure) is in.
   * Unlike isLoading it stays true while a failed fetch is retried by a component mounting.
   */
  isKnown: boolean;
}

export function useUser(): UserState {
  const { data, isPending, isFetched } = useQuery(userQueryOptions());
  return { user: data ?? null, isLoading: isPending, isKnown: isFetched };
}
