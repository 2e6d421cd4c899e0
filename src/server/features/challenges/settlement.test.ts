import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { settle, winnerOf } from './settlement.ts';

describe('settle', () => {
  it('pays the winner the prize minus 5%', () => {
    expect(settle(1000n)).toEqual({ prizeCents: 2000n, feeCents: 100n, winnerCreditCents: 1900n });
    expect(settle(100n)).toEqual({ prizeCents: 200n, feeCents: 10n, winnerCreditCents: 190n });
  });

  it('rounds the fee half-up to the cent', () => {
    // 5% of $0.30 is 1.5 cents: the house takes 2.
    expect(settle(15n).feeCents).toBe(2n);
    // 5% of $0.28 is 1.4 cents: the house takes 1.
    expect(settle(14n).feeCents).toBe(1n);
  });

  it('winner credit + fee = prize, to the cent, for every amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), (stake) => {
        const { prizeCents, feeCents, winnerCreditCents } = settle(stake);
        expect(prizeCents).toBe(stake * 2n);
        expect(winnerCreditCents + feeCents).toBe(prizeCents);
        expect(feeCents >= 0n && winnerCreditCents > 0n).toBe(true);
        // Never more than half a cent from exactly 5%.
        const error = feeCents * 100n - prizeCents * 5n;
        expect(error > -50n && error <= 50n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('winnerOf', () => {
  const players = { creatorId: 1, acceptorId: 2 };
  it('gives the creator the win only with the higher score; ties go to the acceptor', () => {
    expect(winnerOf({ creatorScore: 3, acceptorScore: 2 }, players)).toBe(1);
    expect(winnerOf({ creatorScore: 2, acceptorScore: 3 }, players)).toBe(2);
    expect(winnerOf({ creatorScore: 2, acceptorScore: 2 }, players)).toBe(2);
  });
});
