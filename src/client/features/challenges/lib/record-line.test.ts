import { describe, expect, it } from 'vitest';
import { makeAcceptedChallenge, makeChallenge, makePlayer } from '#client/test-utils/challenges.ts';
import { opponentOf, recordLine } from './record-line.ts';

const record = (overrides: Parameters<typeof makePlayer>[0]['record']) =>
  makePlayer({ id: 1, username: 'x', record: overrides }).record;

describe('recordLine', () => {
  it('reads New player before any result', () => {
    expect(recordLine(record({}))).toBe('New player');
    expect(recordLine(record({ cancelled: 2, disputesOpened: 1 }))).toBe('New player');
  });

  it('gives played and the share won, then only the counts above zero', () => {
    expect(recordLine(record({ played: 34, won: 24, lost: 10, disputesLost: 1 }))).toBe(
      '34 played · 71% won · 1 dispute lost',
    );
    expect(recordLine(record({ played: 3, won: 0, lost: 3 }))).toBe('3 played · 0% won');
    expect(
      recordLine(
        record({
          played: 10,
          won: 5,
          lost: 5,
          tiesLost: 2,
          disputesOpened: 3,
          disputesLost: 2,
          noShows: 1,
          cancelled: 4,
        }),
      ),
    ).toBe(
      '10 played · 50% won · 2 ties lost · 3 disputes opened · 2 disputes lost · 1 no-show · 4 cancelled',
    );
  });
});

describe('opponentOf', () => {
  it('is the other player for the two players, the creator of an open one for others', () => {
    const open = makeChallenge();
    expect(opponentOf(open, 1)?.username).toBe('rival');
    expect(opponentOf(open, 2)).toBeNull();
    const accepted = makeAcceptedChallenge();
    expect(opponentOf(accepted, 1)?.username).toBe('rival');
    expect(opponentOf(accepted, 2)?.username).toBe('ace_player');
    expect(opponentOf(accepted, 3)).toBeNull();
  });
});
