import type { ChallengeView, PlayerRecord } from '#shared/contracts/challenges.ts';

type Player = ChallengeView['creator'];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A player's record in one line (docs/fair-play.md): "34 played · 71% won · 1 dispute lost". The
 * share won is always given once there is a result, 0% included, since a bare count would hide it;
 * the other counts only when above zero. Nothing played yet reads "New player".
 */
export function recordLine(record: PlayerRecord): string {
  if (record.played === 0) return 'New player';
  const parts = [
    `${record.played} played`,
    `${Math.round((record.won / record.played) * 100)}% won`,
  ];
  if (record.tiesLost > 0) parts.push(count(record.tiesLost, 'tie lost', 'ties lost'));
  if (record.disputesOpened > 0)
    parts.push(count(record.disputesOpened, 'dispute opened', 'disputes opened'));
  if (record.disputesLost > 0)
    parts.push(count(record.disputesLost, 'dispute lost', 'disputes lost'));
  if (record.noShows > 0) parts.push(count(record.noShows, 'no-show', 'no-shows'));
  if (record.cancelled > 0) parts.push(`${record.cancelled} cancelled`);
  return parts.join(' · ');
}

/**
 * Whom the viewer plays, or would play, in this challenge: the other player for its two
 * players, the creator of an open challenge for anyone else; nobody otherwise.
 */
export function opponentOf(challenge: ChallengeView, viewerId: number): Player | null {
  if (challenge.creatorId === viewerId) return challenge.acceptor;
  if (challenge.acceptorId === viewerId || challenge.status === 'open') return challenge.creator;
  return null;
}
