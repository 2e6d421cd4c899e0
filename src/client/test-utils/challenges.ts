import type { ChallengeCounts, ChallengeView, PlayerRecord } from '#shared/contracts/challenges.ts';

type Player = ChallengeView['creator'];

/** A player as a challenge embeds them, with no challenges played unless `record` says. */
export function makePlayer(
  player: Omit<Player, 'record'> & { record?: Partial<PlayerRecord> },
): Player {
  return {
    ...player,
    record: {
      played: 0,
      won: 0,
      lost: 0,
      tiesLost: 0,
      disputesOpened: 0,
      disputesLost: 0,
      noShows: 0,
      cancelled: 0,
      ...player.record,
    },
  };
}

/** An open challenge created by player 2 (`rival`); overrides shape the case under test. */
export function makeChallenge(overrides: Partial<ChallengeView> = {}): ChallengeView {
  return {
    id: 11,
    creatorId: 2,
    acceptorId: null,
    winnerId: null,
    amount: 25,
    game: 'EA FC 25',
    gamerTag: 'RivalTag',
    phoneNumber: null,
    console: 'PlayStation',
    mode: null,
    platform: null,
    prize: 50,
    deduction: null,
    status: 'open',
    creatorScore: null,
    acceptorScore: null,
    winnerScreenshot: null,
    scoreData: null,
    notes: null,
    disputeReason: null,
    submittedBy: null,
    createdAt: '2025-03-14T12:00:00.000Z',
    updatedAt: '2025-03-14T12:00:00.000Z',
    acceptedAt: null,
    completedAt: null,
    disputableUntil: null,
    reviewEndsAt: null,
    releasedAt: null,
    cancelRequestedBy: [],
    noShowClaimedBy: null,
    cancelCause: null,
    creator: makePlayer({ id: 2, username: 'rival' }),
    acceptor: null,
    opponent: null,
    ...overrides,
  };
}

/** A challenge between `rival` (2, creator) and the default test user `ace_player` (1). */
export function makeAcceptedChallenge(overrides: Partial<ChallengeView> = {}): ChallengeView {
  return makeChallenge({
    status: 'accepted',
    acceptorId: 1,
    phoneNumber: '+1 555 987 6543',
    acceptedAt: '2025-03-14T13:00:00.000Z',
    creator: makePlayer({ id: 2, username: 'rival', phoneNumber: '+1 555 987 6543' }),
    acceptor: makePlayer({ id: 1, username: 'ace_player', phoneNumber: '+1 555 123 4567' }),
    ...overrides,
  });
}

export function makeCounts(overrides: Partial<ChallengeCounts> = {}): ChallengeCounts {
  return { available: 0, active: 0, completed: 0, created: 0, accepted: 0, ...overrides };
}

/** The path and query of a request URL the client built. */
export function parseRequestUrl(url: string): { path: string; query: Record<string, string> } {
  const parsed = new URL(url, 'http://localhost');
  return { path: parsed.pathname, query: Object.fromEntries(parsed.searchParams) };
}
