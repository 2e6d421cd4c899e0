import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTournamentBody, TournamentDetail } from '#shared/contracts/tournaments.ts';
import type { SubmitScoresBody } from '#shared/contracts/challenges.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { tournamentsQueryKey } from '#shared/page-data.ts';
import { loadTournamentSchema, tournamentQueryKey } from './get-tournaments.ts';

/** What a player or an admin does to a tournament; each answers the tournament as it now is. */
export type TournamentAction =
  | { kind: 'join' }
  | { kind: 'leave' }
  | { kind: 'cancel' }
  | { kind: 'submit'; matchId: number; body: SubmitScoresBody }
  | { kind: 'confirm'; matchId: number }
  | { kind: 'dispute'; matchId: number; reason: string }
  | { kind: 'no-show'; matchId: number }
  | { kind: 'resolve'; matchId: number; winnerId: number };

const DONE: Record<TournamentAction['kind'], string> = {
  join: 'You are in!',
  leave: 'You left the tournament; your entry fee is back',
  cancel: 'Tournament cancelled; every entry fee was refunded',
  submit: 'Result reported',
  confirm: 'Result confirmed',
  dispute: 'Result disputed: an admin will decide',
  'no-show': 'No-show reported: unless your opponent answers with evidence in time, you go on',
  resolve: 'Dispute decided',
};

function request(id: number, action: TournamentAction): [string, unknown] {
  const match = (matchId: number, verb: string) =>
    `/api/tournaments/${id}/matches/${matchId}/${verb}`;
  switch (action.kind) {
    case 'join':
    case 'leave':
      return [`/api/tournaments/${id}/${action.kind}`, undefined];
    case 'cancel':
      return [`/api/admin/tournaments/${id}/cancel`, undefined];
    case 'submit':
      return [match(action.matchId, 'submit'), action.body];
    case 'confirm':
    case 'no-show':
      return [match(action.matchId, action.kind), undefined];
    case 'dispute':
      return [match(action.matchId, 'dispute'), { reason: action.reason }];
    case 'resolve':
      return [
        `/api/admin/tournaments/${id}/matches/${action.matchId}/resolve`,
        { winnerId: action.winnerId },
      ];
  }
}

export function useTournamentAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: TournamentAction): Promise<TournamentDetail> => {
      const [path, body] = request(id, action);
      return postJson(path, body, loadTournamentSchema);
    },
    onSuccess: (tournament, action) => {
      queryClient.setQueryData(tournamentQueryKey(id), tournament);
      void queryClient.invalidateQueries({ queryKey: [...tournamentsQueryKey, 'list'] });
      if (action.kind === 'join' || action.kind === 'leave') void refreshSessionUser(queryClient);
      toast({ title: DONE[action.kind] });
    },
    onError: (error) => {
      toast({ title: 'That did not work', description: error.message, variant: 'destructive' });
    },
  });
}

export function useCreateTournament() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTournamentBody): Promise<TournamentDetail> =>
      postJson('/api/admin/tournaments', body, loadTournamentSchema),
    onSuccess: (tournament) => {
      queryClient.setQueryData(tournamentQueryKey(tournament.id), tournament);
      void queryClient.invalidateQueries({ queryKey: [...tournamentsQueryKey, 'list'] });
      toast({ title: `Tournament #${tournament.id} created` });
    },
  });
}
