import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { adminUserSchema, type AdminUser } from '#shared/contracts/wallet.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

export const ADMIN_USERS_PAGE_SIZE = 100;

export const adminUsersQueryKey = ['admin', 'users'] as const;

const adminUserListSchema = z.array(adminUserSchema);

/** One page of every account with its balance; this endpoint pages by offset. */
export function getAdminUsers(offset: number, signal?: AbortSignal): Promise<AdminUser[]> {
  const params = new URLSearchParams({
    limit: String(ADMIN_USERS_PAGE_SIZE),
    offset: String(offset),
  });
  return getJson(`/api/admin/users?${params.toString()}`, adminUserListSchema, signal);
}

export function adminUsersQueryOptions() {
  return infiniteQueryOptions({
    queryKey: adminUsersQueryKey,
    queryFn: ({ pageParam, signal }) => getAdminUsers(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, allPages) =>
      lastPage.length === ADMIN_USERS_PAGE_SIZE
        ? allPages.length * ADMIN_USERS_PAGE_SIZE
        : undefined,
  });
}

export function useAdminUsers() {
  return useInfiniteQuery(adminUsersQueryOptions());
}
