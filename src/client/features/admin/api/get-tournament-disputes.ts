import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  adminTournamentDisputeSchema,
  type AdminTournamentDispute,
} from '#shared/contracts/tournaments.ts';
import { z } from '#shared/validation.ts';
import { getJson } from '#client/lib/api-client.ts';

export const adminTournamentDisputesQueryKey = ['admin', 'tournament-disputes'] as const;

const listSchema = z.array(adminTournamentDisputeSchema);

/** The disputed matches of live tournaments, oldest report first, with their evidence. */
export function getTournamentDisputes(signal?: AbortSignal): Promise<AdminTournamentDispute[]> {
  return getJson('/api/admin/tournament-disputes', listSchema, signal);
}

export function tournamentDisputesQueryOptions() {
  return queryOptions({
    queryKey: adminTournamentDisputesQueryKey,
    queryFn: ({ signal }) => getTournamentDisputes(signal),
  });
}

export function useTournamentDisputes() {
  return useQuery(tournamentDisputesQueryOptions());
}
