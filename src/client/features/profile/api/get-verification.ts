import { queryOptions, useQuery } from '@tanstack/react-query';
import { verificationStatusSchema, type VerificationStatus } from '#shared/contracts/profile.ts';
import { getJson } from '#client/lib/api-client.ts';

export const verificationQueryKey = ['profile', 'verification'] as const;

/** The player's newest driver's licence review: none, pending, approved or rejected. */
export function getVerification(signal?: AbortSignal): Promise<VerificationStatus> {
  return getJson('/api/user/verification', verificationStatusSchema, signal);
}

export function verificationQueryOptions() {
  return queryOptions({
    queryKey: verificationQueryKey,
    queryFn: ({ signal }) => getVerification(signal),
  });
}

export function useVerification() {
  return useQuery(verificationQueryOptions());
}
