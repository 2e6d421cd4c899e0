import { useState, type FormEvent } from 'react';
import type { TournamentDetail, TournamentMatchView } from '#shared/contracts/tournaments.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useTournamentAction } from '../api/tournament-actions.ts';
import { VoicePanel } from '#client/features/voice/components/voice-panel.tsx';
import { roundName } from './bracket.tsx';
import { MatchEvidence } from './match-evidence.tsx';

/** The viewer's match that still needs something from a player, if any. */
export function currentMatchOf(
  tournament: TournamentDetail,
  userId: number,
): TournamentMatchView | undefined {
  return tournament.matches.find(
    (match) =>
      (match.playerA?.id === userId || match.playerB?.id === userId) &&
      (match.status === 'playing' || match.status === 'reported' || match.status === 'disputed'),
  );
}

function ReportForm({ tournamentId, match }: { tournamentId: number; match: TournamentMatchView }) {
  const action = useTournamentAction(tournamentId);
  const [scoreA, setScoreA] = useState('');
  const [scoreB, setScoreB] = useState('');
  const [screenshot, setScreenshot] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({
      kind: 'submit',
      matchId: match.id,
      body: { creatorScore: Number(scoreA), acceptorScore: Number(scoreB), screenshot },
    });
  };
  return (
    <form onSubmit={submit} aria-label="Report the result" className="grid gap-3 sm:grid-cols-3">
      <Field label={`${match.playerA?.username ?? 'First player'}'s score`}>
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            required
            value={scoreA}
            onChange={(e) => setScoreA(e.target.value)}
          />
        )}
      </Field>
      <Field label={`${match.playerB?.username ?? 'Second player'}'s score`}>
        {(control) => (
          <Input
            {...control}
            inputMode="numeric"
            required
            value={scoreB}
            onChange={(e) => setScoreB(e.target.value)}
          />
        )}
      </Field>
      <Field label="Screenshot URL" hint="An https:// link to the final score">
        {(control) => (
          <Input
            {...control}
            type="url"
            required
            value={screenshot}
            onChange={(e) => setScreenshot(e.target.value)}
          />
        )}
      </Field>
      <div className="sm:col-span-3">
        <Button type="submit" disabled={action.isPending}>
          REPORT RESULT
        </Button>
      </div>
    </form>
  );
}

/** What the viewer can do on their current match: report, confirm, dispute, claim a no-show. */
export function MyMatch({
  tournament,
  match,
  userId,
}: {
  tournament: TournamentDetail;
  match: TournamentMatchView;
  userId: number;
}) {
  const action = useTournamentAction(tournament.id);
  const [reason, setReason] = useState('');
  const opponent = match.playerA?.id === userId ? match.playerB : match.playerA;
  const answering = match.status === 'reported' && match.reportedBy !== userId;
  return (
    <Card className="mb-6 border-accent/50">
      <CardHeader>
        <CardTitle>
          Your match: {roundName(match.round, tournament.rounds)} against{' '}
          {opponent?.username ?? 'your opponent'}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {match.deadlineAt && (
          <p className="text-slate-300">
            {match.status === 'playing'
              ? `Play it and report the result by ${formatDateTime(match.deadlineAt)}: a match nobody reports by then goes to the higher seed (${match.playerA?.username ?? 'the first player'}).`
              : `A no-show claim the other player does not answer with evidence by ${formatDateTime(match.deadlineAt)} goes to the player who made it.`}
          </p>
        )}
        {match.status === 'playing' && (
          <>
            {opponent && (
              <VoicePanel
                room={{ tournamentMatchId: match.id }}
                userId={userId}
                isCreator={match.playerA?.id === userId}
                opponentName={opponent.username}
              />
            )}
            <ReportForm tournamentId={tournament.id} match={match} />
            <Button
              variant="outline"
              disabled={action.isPending}
              onClick={() => action.mutate({ kind: 'no-show', matchId: match.id })}
            >
              MY OPPONENT DID NOT SHOW UP
            </Button>
          </>
        )}
        {match.status === 'reported' && !answering && (
          <p className="text-slate-300">
            You reported {match.scoreA}–{match.scoreB}. Your opponent can confirm or dispute it
            until {match.reviewEndsAt ? formatDateTime(match.reviewEndsAt) : 'the review ends'};
            then it stands.
          </p>
        )}
        {answering && (
          <>
            <p className="text-slate-300">
              Your opponent reported {match.scoreA}–{match.scoreB}. Confirm it, or dispute it before{' '}
              {match.reviewEndsAt ? formatDateTime(match.reviewEndsAt) : 'the review ends'}.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button
                disabled={action.isPending}
                onClick={() => action.mutate({ kind: 'confirm', matchId: match.id })}
              >
                CONFIRM RESULT
              </Button>
            </div>
            <form
              aria-label="Dispute the result"
              className="flex flex-col gap-3 sm:flex-row sm:items-end"
              onSubmit={(event) => {
                event.preventDefault();
                action.mutate({ kind: 'dispute', matchId: match.id, reason });
              }}
            >
              <div className="grow">
                <Field label="What is wrong with this result?">
                  {(control) => (
                    <Input
                      {...control}
                      required
                      maxLength={1000}
                      value={reason}
                      onChange={(e) => setReason(e.target.value)}
                    />
                  )}
                </Field>
              </div>
              <Button type="submit" variant="outline" disabled={action.isPending}>
                DISPUTE
              </Button>
            </form>
          </>
        )}
        {match.status === 'disputed' && (
          <>
            <p className="text-slate-300">
              This match is disputed ({match.disputeReason}).{' '}
              {match.deadlineAt
                ? 'An admin decides who goes on once the player it names has answered with evidence.'
                : 'An admin will decide who goes on.'}
            </p>
            <MatchEvidence tournamentId={tournament.id} matchId={match.id} canAdd />
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** The admin's tool: each disputed match, decided for one of its players. */
export function DisputedMatches({ tournament }: { tournament: TournamentDetail }) {
  const action = useTournamentAction(tournament.id);
  const disputed = tournament.matches.filter((match) => match.status === 'disputed');
  if (disputed.length === 0) return null;
  return (
    <Card className="mb-6 border-red-400/50">
      <CardHeader>
        <CardTitle>Disputes to decide</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {disputed.map((match) => (
          <div key={match.id} className="space-y-2">
            <p className="text-slate-200">
              {roundName(match.round, tournament.rounds)}: {match.playerA?.username} vs{' '}
              {match.playerB?.username}
              {match.scoreA !== null && ` (reported ${match.scoreA}–${match.scoreB})`}. Reason:{' '}
              {match.disputeReason}
            </p>
            <MatchEvidence tournamentId={tournament.id} matchId={match.id} canAdd={false} />
            <div className="flex flex-wrap gap-3">
              {[match.playerA, match.playerB].map(
                (player) =>
                  player && (
                    <Button
                      key={player.id}
                      variant="outline"
                      disabled={action.isPending}
                      onClick={() =>
                        action.mutate({ kind: 'resolve', matchId: match.id, winnerId: player.id })
                      }
                    >
                      {player.username} GOES ON
                    </Button>
                  ),
              )}
            </div>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}
