import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { PublicUser } from '#shared/contracts/user.ts';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';
import { ApiError, getJson } from '#client/lib/api-client.ts';
import { pageBlock } from '#client/lib/page-block.ts';

/** The cache key of the signed-in user. Realtime balance updates write through it too. */
export const userQueryKey = ['user'] as const;

/**
 * The contract of a user as the API shows it, loaded on first use. This module is part of the
 * entry chunk, which every page waits for: importing the contract here would put zod in it, and
 * building zod's schemas was the largest part of that chunk's evaluation before the first paint.
 */
export async function loadPublicUserSchema() {
  return (await import('#shared/contracts/user.ts')).publicUserSchema;
}

/**
 * The signed-in user, or null when there is no session (docs/product.md#states: 401 means
 * anonymous).
 */
export async function getUser(signal?: AbortSignal): Promise<PublicUser | null> {
  try {
    return await getJson('/api/user', loadPublicUserSchema, signal);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw new Error('Failed to fetch user', { cause: error });
  }
}

/**
 * The user the server named in the page it sent (null: nobody is signed in), or undefined when it
 * did not say (the development server, a server that could not check the session) or said
 * something unreadable: then the client asks GET /api/user. Only a user needs its contract, so a
 * page for nobody, /auth, is shown without loading zod at all.
 */
export async function userFromPage(page: Document): Promise<PublicUser | null | undefined> {
  const value = pageBlock(page, SESSION_USER_ELEMENT_ID);
  if (value === undefined || value === null) return value;
  // A contract that cannot be loaded leaves the question to the API, whose answer needs it too
  // and so ends in the app's own error instead of in a blank page.
  const schema = await loadPublicUserSchema().catch(() => undefined);
  const parsed = schema?.safeParse(value);
  return parsed?.success ? parsed.data : undefined;
}

/**
 * Before the first render: the user the page names goes into the cache, so nothing asks again;
 * when the page does not say, the API is asked at once, beside the current page's chunk.
 */
export async function seedUserFromPage(queryClient: QueryClient, page: Document): Promise<void> {
  const user = await userFromPage(page);
  if (user === undefined) void queryClient.prefetchQuery(userQueryOptions());
  else queryClient.setQueryData(userQueryKey, user);
}

export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: ({ signal }) => getUser(signal),
  });
}

export interface UserState {
  /**
   * Null while loading, when signed out, and when the user could not be fetched
   * (docs/product.md#messages).
   */
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
