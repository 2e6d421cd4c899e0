import { queryOptions, useQuery } from '@tanstack/react-query';
import { profileConfigSchema, type ProfileConfig } from '#shared/contracts/profile.ts';
import { getJson } from '#client/lib/api-client.ts';

export const profileConfigQueryKey = ['profile', 'config'] as const;

/** Server settings the profile needs, such as the address of the separate free site. */
export function getProfileConfig(signal?: AbortSignal): Promise<ProfileConfig> {
  return getJson('/api/profile/config', profileConfigSchema, signal);
}

export function profileConfigQueryOptions() {
  return queryOptions({
    queryKey: profileConfigQueryKey,
    queryFn: ({ signal }) => getProfileConfig(signal),
  });
}

export function useProfileConfig() {
  return useQuery(profileConfigQueryOptions());
}
