import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tournamentDetailSchema } from '#shared/contracts/tournaments.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminTournamentDisputesQueryKey } from './get-tournament-disputes.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface ResolveTournamentMatchInput {
  tournamentId: number;
  matchId: number;
  winnerId: number;
  winnerName: string;
}

/** The tournament page's own decision route: the chosen player goes on (decision 0020). */
export function resolveTournamentMatch({
  tournamentId,
  matchId,
  winnerId,
}: ResolveTournamentMatchInput) {
  return postJson(
    `/api/admin/tournaments/${tournamentId}/matches/${matchId}/resolve`,
    { winnerId },
    tournamentDetailSchema,
  );
}

export function useResolveTournamentMatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveTournamentMatch,
    onSuccess: (tournament, input) => {
      toast({
        title: 'Dispute decided',
        description: `Tournament #${tournament.id}: ${input.winnerName} goes on.`,
      });
      void refreshAdminViews(queryClient, [adminTournamentDisputesQueryKey, ['tournaments']]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to decide the match'),
  });
}
