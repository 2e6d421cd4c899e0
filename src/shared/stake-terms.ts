import { formatCents, percentOf, type Cents } from './money.ts';

/**
 * The winner's fee: 5% of the prize, in basis points so no float is ever involved. A module
 * without zod, so that the lobby's cards can state the money without bringing zod in.
 */
export const WINNER_FEE_BASIS_POINTS = 500n;

/** What a match for `stakeCents` a player moves (docs/challenges.md#lifecycle). */
export interface StakeTerms {
  /** Both stakes: the whole escrow. */
  prizeCents: Cents;
  /** The house's 5% of the prize, rounded half-up to the cent. */
  feeCents: Cents;
  /** What reaches the winner's wallet. */
  winnerCreditCents: Cents;
}

export function stakeTerms(stakeCents: Cents): StakeTerms {
  const prizeCents = stakeCents * 2n;
  const feeCents = percentOf(prizeCents, WINNER_FEE_BASIS_POINTS);
  return { prizeCents, feeCents, winnerCreditCents: prizeCents - feeCents };
}

/** The winner's fee in words: "5%". */
export const WINNER_FEE_PERCENT = `${Number(WINNER_FEE_BASIS_POINTS) / 100}%`;

/** The money of a stake, said before it moves: "You stake $50.00. Win: $95.00 after the 5% fee." */
export function stakeMoneyLine(stakeCents: Cents): string {
  const { winnerCreditCents } = stakeTerms(stakeCents);
  return (
    `You stake ${formatCents(stakeCents)}. Win: ${formatCents(winnerCreditCents)} after the ` +
    `${WINNER_FEE_PERCENT} fee.`
  );
}
