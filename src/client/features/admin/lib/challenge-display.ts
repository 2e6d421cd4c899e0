import type { ChallengeView } from '#shared/contracts/challenges.ts';

/**
 * docs/product.md#screens: a player the record no longer names (a deleted account, say) reads
 * Unknown.
 */
export function playerName(player: { username?: string | null } | null | undefined): string {
  return player?.username || 'Unknown';
}

/** The winner's name, or null when nobody won (a refund) or the winner is not a participant. */
export function winnerLabel(challenge: ChallengeView): string | null {
  if (challenge.winnerId === null) return null;
  if (challenge.winnerId === challenge.creatorId) return playerName(challenge.creator);
  if (challenge.winnerId === challenge.acceptorId) return playerName(challenge.acceptor);
  return null;
}

/** "3 – 1", creator first; a dash for a score that was never submitted. */
export function scoreLine(challenge: ChallengeView): string {
  return `${challenge.creatorScore ?? '–'} – ${challenge.acceptorScore ?? '–'}`;
}
