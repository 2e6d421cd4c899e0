import { stakeTerms, type StakeTerms } from '#shared/stake-terms.ts';

export type Settlement = StakeTerms;

/** How a match for `stakeCents` each is paid out (the client states the same before it moves). */
export const settle = (stakeCents: bigint): Settlement => stakeTerms(stakeCents);

/** docs/product.md#states: the creator wins only with the higher score; ties go to the acceptor. */
export function winnerOf(
  scores: { creatorScore: number; acceptorScore: number },
  players: { creatorId: number; acceptorId: number },
): number {
  return scores.creatorScore > scores.acceptorScore ? players.creatorId : players.acceptorId;
}
