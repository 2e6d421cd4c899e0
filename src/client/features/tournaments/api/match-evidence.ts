import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Evidence } from '#shared/contracts/challenges.ts';
import { getJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { loadEvidenceListSchema, postEvidence } from '#client/features/challenges/api/fair-play.ts';
import { tournamentsQueryKey } from '#shared/page-data.ts';

const path = (tournamentId: number, matchId: number) =>
  `/api/tournaments/${tournamentId}/matches/${matchId}/evidence`;

function matchEvidenceKey(tournamentId: number, matchId: number) {
  return [...tournamentsQueryKey, 'evidence', tournamentId, matchId] as const;
}

/** Both sides' evidence on a disputed match (its players and the admins). */
export function useMatchEvidence(tournamentId: number, matchId: number) {
  return useQuery({
    queryKey: matchEvidenceKey(tournamentId, matchId),
    queryFn: ({ signal }): Promise<Evidence[]> =>
      getJson(path(tournamentId, matchId), loadEvidenceListSchema, signal),
  });
}

export function useAddMatchEvidence(tournamentId: number, matchId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { statement: string; file: File | null }) =>
      postEvidence(path(tournamentId, matchId), input),
    onSuccess: () => {
      toast({ title: 'Evidence added', description: 'The admin will see it beside the dispute.' });
      void queryClient.invalidateQueries({ queryKey: matchEvidenceKey(tournamentId, matchId) });
    },
    onError: (error) => {
      toast({
        title: 'Could not add evidence',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
