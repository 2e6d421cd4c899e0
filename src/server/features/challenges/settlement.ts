import { WINNER_FEE_BASIS_POINTS } from '#shared/contracts/challenges.ts';
import { percentOf } from '#shared/money.ts';

export interface Settlement {
  /** Both stakes: the whole escrow. */
  prizeCents: bigint;
  /** The house's 5%, rounded half-up to the cent (docs/challenges.md#lifecycle). */
  feeCents: bigint;
  /** What reaches the winner's wallet. */
  winnerCreditCents: bigint;
}

export function settle(stakeCents: bigint): Settlement {
  const prizeCents = stakeCents * 2n;
  const feeCents = percentOf(prizeCents, WINNER_FEE_BASIS_POINTS);
  return { prizeCents, feeCents, winnerCreditCents: prizeCents - feeCents };
}

/** docs/product.md#states: the creator wins only with the higher score; ties go to the acceptor. */
export function winnerOf(
  scores: { creatorScore: number; acceptorScore: number },
  players: { creatorId: number; acceptorId: number },
): number {
  return scores.creatorScore > scores.acceptorScore ? players.creatorId : players.acceptorId;
}
