import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { TournamentDetail, TournamentMatchView } from '#shared/contracts/tournaments.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { Bracket } from './bracket.tsx';

const DEADLINE = '2031-05-01T13:00:00.000Z';

function match(overrides: Partial<TournamentMatchView>): TournamentMatchView {
  return {
    id: 1,
    round: 1,
    slot: 0,
    playerA: { id: 1, username: 'ace_player' },
    playerB: { id: 2, username: 'rival' },
    status: 'playing',
    winnerId: null,
    scoreA: null,
    scoreB: null,
    reportedBy: null,
    reviewEndsAt: null,
    deadlineAt: null,
    disputeReason: null,
    standCause: null,
    ...overrides,
  };
}

const tournament = (matches: TournamentMatchView[]): TournamentDetail => ({
  id: 7,
  game: 'Tekken 8',
  console: 'PlayStation',
  entryFee: 3,
  size: 4,
  startsAt: '2031-05-01T12:00:00.000Z',
  status: 'live',
  allowByes: false,
  prizeSplit: [70, 30],
  entrants: 4,
  placesLeft: 0,
  prizePool: 11.4,
  joined: true,
  seed: 'ab',
  winnerId: null,
  rounds: 2,
  entries: [],
  matches,
});

describe('the bracket', () => {
  it('shows when an unplayed match is decided, and how the time limit decided one', () => {
    render(
      <Bracket
        tournament={tournament([
          match({ id: 1, deadlineAt: DEADLINE }),
          match({
            id: 2,
            slot: 1,
            playerA: { id: 3, username: 'third' },
            playerB: { id: 4, username: 'fourth' },
            status: 'done',
            winnerId: 3,
            standCause: 'time_limit',
          }),
          match({ id: 3, round: 2, playerA: { id: 3, username: 'third' }, playerB: null }),
        ])}
      />,
    );
    expect(screen.getByRole('article', { name: 'Semi-finals, match 1' })).toHaveTextContent(
      `Decided at ${formatDateTime(DEADLINE)} if unplayed`,
    );
    expect(screen.getByRole('article', { name: 'Semi-finals, match 2' })).toHaveTextContent(
      'Done: not played in time, higher seed',
    );
    expect(screen.getByRole('article', { name: 'Final, match 1' })).not.toHaveTextContent(
      'Decided at',
    );
  });
});
