import type { ChallengeView } from '#shared/contracts/challenges.ts';
import { isHttpsUrl, UPLOAD_PATH_PATTERN } from '#shared/contracts/uploads.ts';

/**
 * docs/product.md#screens: an open challenge reads AVAILABLE; every other status is shown
 * upper-cased.
 */
export function challengeStatusLabel(status: ChallengeView['status']): string {
  return status === 'open' ? 'AVAILABLE' : status.toUpperCase();
}

export function isParticipant(challenge: ChallengeView, viewerId: number): boolean {
  return challenge.creatorId === viewerId || challenge.acceptorId === viewerId;
}

/**
 * The one main action a card offers its viewer (docs/product.md#screens): accept someone else's
 * open challenge, submit scores for one's own accepted match, or otherwise look at the details.
 */
export type CardAction = 'accept' | 'submit' | 'view';

export function cardAction(challenge: ChallengeView, viewerId: number): CardAction {
  if (challenge.status === 'open' && challenge.creatorId !== viewerId) return 'accept';
  if (challenge.status === 'accepted' && isParticipant(challenge, viewerId)) return 'submit';
  return 'view';
}

/** Only the creator may withdraw, and only while nobody has accepted. */
export function canCancel(challenge: ChallengeView, viewerId: number): boolean {
  return challenge.status === 'open' && challenge.creatorId === viewerId;
}

/**
 * The other player (not the one who submitted) may dispute a completed result until the deadline.
 */
export function canDispute(challenge: ChallengeView, viewerId: number, now: Date): boolean {
  if (challenge.status !== 'completed' || challenge.disputableUntil === null) return false;
  if (!isParticipant(challenge, viewerId) || challenge.submittedBy === viewerId) return false;
  return now.getTime() < new Date(challenge.disputableUntil).getTime();
}

export function winnerName(challenge: ChallengeView): string | null {
  if (challenge.winnerId === null) return null;
  if (challenge.winnerId === challenge.creatorId) return challenge.creator.username;
  if (challenge.acceptor && challenge.winnerId === challenge.acceptor.id) {
    return challenge.acceptor.username;
  }
  return null;
}

/**
 * A screenshot link typed by a player is only made clickable when it is https
 * (docs/architecture.md#files-and-mail); a file uploaded through the app is served from our own
 * origin. Anything else is shown as text.
 */
export function safeScreenshotHref(screenshot: string | null): string | null {
  if (!screenshot) return null;
  if (UPLOAD_PATH_PATTERN.test(screenshot) || isHttpsUrl(screenshot)) return screenshot;
  return null;
}
