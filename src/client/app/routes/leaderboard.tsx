import { useId, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Search, TriangleAlert, Trophy } from 'lucide-react';
import type {
  Leaderboard,
  LeaderboardPeriodValue,
  LeaderboardRow,
} from '#shared/contracts/players.ts';
import { GAME_MAX } from '#shared/lobby.ts';
import {
  isLeaderboardPeriod,
  leaderboardChoiceOf,
  type LeaderboardChoice,
} from '#shared/page-data.ts';
import { PlayerLink } from '#client/components/player-link.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { EmptyState } from '#client/components/ui/empty-state.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { PageHeader } from '#client/components/ui/page-header.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useGameSuggestions } from '#client/features/challenges/api/get-game-suggestions.ts';
import { useLeaderboard } from '#client/features/players/api/get-leaderboard.ts';
import { formatSignedDollars } from '#client/lib/format.ts';

const PERIOD_LABELS: Record<LeaderboardPeriodValue, string> = {
  week: 'This week',
  month: 'This month',
  all: 'All time',
};

/** The board in the address (`?period=month&game=Tekken 8`), so that a link shares it. */
function useLeaderboardChoice(): [LeaderboardChoice, (next: LeaderboardChoice) => void] {
  const search = useSearch();
  const [path, navigate] = useLocation();
  // The server reads the address the same way for the board it puts in the page.
  const choice = leaderboardChoiceOf(search);
  const choose = (next: LeaderboardChoice) => {
    const query = new URLSearchParams();
    if (next.period !== 'week') query.set('period', next.period);
    if (next.game.trim()) query.set('game', next.game.trim());
    const text = query.toString();
    navigate(text ? `${path}?${text}` : path, { replace: true });
  };
  return [choice, choose];
}

function BoardTable({
  caption,
  rows,
  by,
}: {
  caption: string;
  rows: LeaderboardRow[];
  by: 'net' | 'wins';
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{caption}</CardTitle>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-slate-300">No finished matches in this period yet.</p>
        ) : (
          <table className="w-full table-fixed border-collapse text-sm">
            <caption className="sr-only">{caption}</caption>
            <thead>
              <tr className="border-b border-ink-700 text-left text-[0.7rem] tracking-wider text-slate-400 uppercase">
                <th scope="col" className="w-10 py-2 pr-2 font-semibold">
                  #
                </th>
                <th scope="col" className="py-2 pr-2 font-semibold">
                  Player
                </th>
                <th scope="col" className="w-24 py-2 pr-2 text-right font-semibold">
                  {by === 'net' ? 'Net' : 'Wins'}
                </th>
                <th scope="col" className="w-16 py-2 text-right font-semibold">
                  Played
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.username} className="border-b border-ink-800 last:border-0">
                  <td className="py-2 pr-2 font-display font-bold text-accent tabular-nums">
                    {row.rank}
                  </td>
                  <td className="truncate py-2 pr-2">
                    <PlayerLink username={row.username} />
                  </td>
                  <td className="py-2 pr-2 text-right font-semibold text-white tabular-nums">
                    {by === 'net' ? formatSignedDollars(row.net) : row.wins}
                  </td>
                  <td className="py-2 text-right text-slate-300 tabular-nums">{row.played}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}

function Boards({ board }: { board: Leaderboard }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <BoardTable caption="By net winnings" rows={board.byNet} by="net" />
      <BoardTable caption="By wins" rows={board.byWins} by="wins" />
    </div>
  );
}

/**
 * /leaderboard (docs/challenges.md#finding-an-opponent): the top 50 by net winnings (prizes
 * credited minus stakes) and by wins, this week, this month or all time, over all games or one.
 */
export function LeaderboardPage() {
  const id = useId();
  const [choice, choose] = useLeaderboardChoice();
  const [game, setGame] = useState(choice.game);
  const board = useLeaderboard(choice);
  const suggestions = useGameSuggestions(game);
  const showGame = (event: FormEvent) => {
    event.preventDefault();
    choose({ ...choice, game });
  };

  return (
    <>
      <PageHeader
        eyebrow="FINDING AN OPPONENT"
        title="LEADERBOARD"
        description="The top 50 players by net winnings (prizes won minus stakes) and by wins. Weeks start on Monday and months on the 1st, in UTC."
      />
      <form
        onSubmit={showGame}
        aria-label="Choose a leaderboard"
        className="mb-6 grid gap-3 rounded-xl border border-ink-700 bg-ink-850/80 p-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,2fr)_auto] sm:items-end"
      >
        <div>
          <Label htmlFor={`${id}-period`} className="mb-1.5 text-xs tracking-wider uppercase">
            Period
          </Label>
          <NativeSelect
            id={`${id}-period`}
            value={choice.period}
            onChange={(event) => {
              if (isLeaderboardPeriod(event.target.value))
                choose({ ...choice, period: event.target.value });
            }}
          >
            {(Object.keys(PERIOD_LABELS) as LeaderboardPeriodValue[]).map((period) => (
              <option key={period} value={period}>
                {PERIOD_LABELS[period]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div>
          <Label htmlFor={`${id}-game`} className="mb-1.5 text-xs tracking-wider uppercase">
            Game
          </Label>
          <Input
            id={`${id}-game`}
            type="search"
            list={`${id}-games`}
            autoComplete="off"
            placeholder="All games"
            maxLength={GAME_MAX}
            value={game}
            onChange={(event) => setGame(event.target.value)}
          />
          <datalist id={`${id}-games`}>
            {suggestions.data?.map((suggestion) => (
              <option key={suggestion.name} value={suggestion.name} />
            ))}
          </datalist>
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          SHOW
        </Button>
      </form>
      <h2 className="mb-4 flex items-center gap-2 font-display text-lg font-bold tracking-wider text-white">
        <Trophy aria-hidden="true" className="size-5 text-accent" />
        {PERIOD_LABELS[choice.period]} · {board.data?.game ?? (choice.game || 'All games')}
      </h2>
      {board.isPending ? (
        <PageSpinner />
      ) : board.data === undefined ? (
        <EmptyState
          icon={TriangleAlert}
          title="COULD NOT LOAD THE LEADERBOARD"
          description="Please refresh the page to try again."
        />
      ) : (
        <Boards board={board.data} />
      )}
    </>
  );
}
