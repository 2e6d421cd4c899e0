import { DISPUTE_WINDOW_MS, type ChallengeView } from '#shared/contracts/challenges.ts';
import { centsToDollarNumber } from '#shared/money.ts';
import type { User } from '../../db/schema/users.ts';
import type { ChallengeRow, Party } from './repository.ts';

/**
 * The challenge as one viewer may see it (docs/product.md#data). Phone numbers reach only the two
 * players and admins, so that an open challenge does not publish its creator's number to every
 * visitor; e-mail addresses and balances reach admins only.
 */
export function toChallengeView(row: ChallengeRow, viewer: User): ChallengeView {
  const { challenge } = row;
  const isParticipant = viewer.id === challenge.creatorId || viewer.id === challenge.acceptorId;
  return viewWith(row, { seesContact: isParticipant || viewer.isAdmin, isAdmin: viewer.isAdmin });
}

/** The challenge as any signed-in player who is neither one of its players nor an admin sees it. */
export function toOutsiderView(row: ChallengeRow): ChallengeView {
  return viewWith(row, { seesContact: false, isAdmin: false });
}

function viewWith(
  row: ChallengeRow,
  { seesContact, isAdmin }: { seesContact: boolean; isAdmin: boolean },
): ChallengeView {
  const { challenge } = row;
  const party = (p: Party) => ({
    id: p.id,
    username: p.username,
    ...(seesContact ? { phoneNumber: p.phoneNumber } : {}),
    ...(isAdmin ? { email: p.email } : {}),
    ...(isAdmin && p.balanceCents !== null ? { balance: centsToDollarNumber(p.balanceCents) } : {}),
    record: p.record,
  });

  const { creatorScore, acceptorScore, screenshotUrl } = challenge;
  const scoreData =
    creatorScore !== null && acceptorScore !== null && screenshotUrl !== null
      ? { creatorScore, acceptorScore, screenshot: screenshotUrl }
      : null;
  const underReview =
    challenge.status === 'completed' &&
    challenge.reviewEndsAt !== null &&
    challenge.releasedAt === null;
  // Results from before reviews existed could be disputed for 24 hours after completion.
  const legacyDisputableUntil =
    challenge.status === 'completed' && challenge.reviewEndsAt === null && challenge.completedAt
      ? new Date(challenge.completedAt.getTime() + DISPUTE_WINDOW_MS).toISOString()
      : null;

  return {
    id: challenge.id,
    creatorId: challenge.creatorId,
    acceptorId: challenge.acceptorId,
    winnerId: challenge.winnerId,
    amount: centsToDollarNumber(challenge.amountCents),
    game: challenge.game,
    gamerTag: challenge.gamerTag,
    // A closed account's number is erased to nothing (users/close-account.ts).
    phoneNumber: seesContact && challenge.phoneNumber !== '' ? challenge.phoneNumber : null,
    console: challenge.console,
    mode: challenge.mode,
    platform: challenge.platform,
    prize: centsToDollarNumber(challenge.prizeCents ?? challenge.amountCents * 2n),
    deduction: challenge.feeCents === null ? null : centsToDollarNumber(challenge.feeCents),
    status: challenge.status,
    creatorScore: challenge.creatorScore,
    acceptorScore: challenge.acceptorScore,
    winnerScreenshot: challenge.screenshotUrl,
    scoreData,
    notes: challenge.notes,
    disputeReason: challenge.disputeReason,
    submittedBy: challenge.submittedBy,
    createdAt: challenge.createdAt.toISOString(),
    updatedAt: challenge.updatedAt.toISOString(),
    acceptedAt: challenge.acceptedAt?.toISOString() ?? null,
    completedAt: challenge.completedAt?.toISOString() ?? null,
    disputableUntil: underReview
      ? (challenge.reviewEndsAt?.toISOString() ?? null)
      : legacyDisputableUntil,
    reviewEndsAt: underReview ? (challenge.reviewEndsAt?.toISOString() ?? null) : null,
    releasedAt: challenge.releasedAt?.toISOString() ?? null,
    cancelRequestedBy: [
      ...(challenge.creatorCancelRequestedAt ? [challenge.creatorId] : []),
      ...(challenge.acceptorCancelRequestedAt && challenge.acceptorId !== null
        ? [challenge.acceptorId]
        : []),
    ],
    noShowClaimedBy: challenge.noShowClaimedBy,
    cancelCause: challenge.cancelCause,
    creator: party(row.creator),
    acceptor: row.acceptor ? party(row.acceptor) : null,
    opponent:
      challenge.opponentId !== null && row.opponentName !== null
        ? { id: challenge.opponentId, username: row.opponentName }
        : null,
  };
}
