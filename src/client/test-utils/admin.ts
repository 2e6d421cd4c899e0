import type { AdminDispute, AdminVerification, AuditEntryView } from '#shared/contracts/admin.ts';
import type { PlayerPage } from '#shared/contracts/insights.ts';
import type { AdminReport } from '#shared/contracts/reports.ts';
import type { AdminUser } from '#shared/contracts/wallet.ts';
import { makeChallenge, makePlayer } from './challenges.ts';
import { makeUser } from './render-app.tsx';

/** The signed-in operator of the admin tests. */
export const OPERATOR = makeUser({ id: 99, username: 'operator', isAdmin: true, balance: 0 });

export function makeAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 1,
    username: 'ace_player',
    balance: 12.5,
    isAdmin: false,
    email: 'ace@example.com',
    phoneNumber: '+1 555 123 4567',
    createdAt: '2025-03-14T12:00:00.000Z',
    suspension: null,
    playBreak: null,
    ...overrides,
  };
}

/** A disputed match between `rival` (2) and `ace_player` (1) whose stakes are still in escrow. */
export function makeDispute(overrides: Partial<AdminDispute> = {}): AdminDispute {
  return {
    ...makeChallenge({
      id: 21,
      status: 'disputed',
      acceptorId: 1,
      creatorScore: 3,
      acceptorScore: 2,
      winnerScreenshot: 'https://i.imgur.com/evidence.png',
      disputeReason: 'The score was 2-3, not 3-2',
      submittedBy: 2,
      creator: makePlayer({ id: 2, username: 'rival', email: 'rival@example.com', balance: 5 }),
      acceptor: makePlayer({
        id: 1,
        username: 'ace_player',
        email: 'ace@example.com',
        balance: 12.5,
      }),
    }),
    stakesInEscrow: true,
    heldForReview: false,
    ...overrides,
  };
}

export function makeVerification(overrides: Partial<AdminVerification> = {}): AdminVerification {
  return {
    id: 31,
    userId: 1,
    username: 'ace_player',
    status: 'pending',
    uploadId: '0b6f7c1e-3a52-4d7a-9c1e-7f1f2a3b4c5d',
    fileUrl: '/api/uploads/0b6f7c1e-3a52-4d7a-9c1e-7f1f2a3b4c5d',
    contentType: 'image/png',
    sizeBytes: 245_760,
    note: null,
    reviewedBy: null,
    reviewedAt: null,
    createdAt: '2025-03-14T12:00:00.000Z',
    ...overrides,
  };
}

export function makeAuditEntry(overrides: Partial<AuditEntryView> = {}): AuditEntryView {
  return {
    id: 41,
    createdAt: '2025-03-14T12:00:00.000Z',
    actor: { id: 99, username: 'operator' },
    action: 'balance.adjust',
    target: { type: 'user', id: '1' },
    details: { amountCents: '-500', balanceAfterCents: '1200' },
    reason: 'Goodwill correction',
    ...overrides,
  };
}

/** An open report by `rival` (2) about `ace_player` (1), naming challenge 21. */
export function makeReport(overrides: Partial<AdminReport> = {}): AdminReport {
  return {
    id: 5,
    status: 'open',
    reason: 'Sent a screenshot from another match',
    challengeId: 21,
    reporter: { id: 2, username: 'rival' },
    reported: { id: 1, username: 'ace_player' },
    createdAt: '2025-03-14T12:00:00.000Z',
    resolvedBy: null,
    resolvedAt: null,
    resolutionNote: null,
    ...overrides,
  };
}

const NO_LIMIT = { amount: null, used: 0, left: null, pending: null };

/** The admin's page of `ace_player` (1): a new account with nothing in any list. */
export function makePlayerPage(overrides: Partial<PlayerPage> = {}): PlayerPage {
  const { record } = makePlayer({ id: 1, username: 'ace_player' });
  return {
    profile: makeUser({ id: 1, username: 'ace_player' }),
    deleted: false,
    verification: { status: 'none', note: null, submittedAt: null, reviewedAt: null },
    responsibleGaming: {
      limits: { daily: NO_LIMIT, weekly: NO_LIMIT, monthly: NO_LIMIT },
      playBreak: null,
      history: [],
    },
    record,
    challenges: [],
    transactions: [],
    payments: [],
    payouts: [],
    sessions: [],
    deviceLinks: [],
    notes: [],
    ...overrides,
  };
}
