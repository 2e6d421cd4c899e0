import { z } from '../validation.ts';
import { CHALLENGE_PAGE_MAX, challengeSchema, NOTES_MAX } from './challenges.ts';
import { beforeCursor, BIGINT_ID_MAX, idParamsSchema } from './ids.ts';
import { suspensionSchema } from './user.ts';

/**
 * The admin dashboard's API beyond users and balances (those are in `wallet.ts`): completed
 * challenges, the dispute queue, account deletion, ID verification, the audit log and the
 * ledger's health (docs/product.md#screens and #roles; issue 6).
 */
export const ADMIN_MESSAGES = {
  userNotFound: 'User not found',
  cannotDeleteSelf: 'You cannot delete your own account',
  userDeleted: 'User deleted',
  outcomeInvalid: 'Please choose an outcome',
  noteRequired: 'Please explain the decision',
  noteMax: `Must be at most ${NOTES_MAX} characters`,
  notDisputed: 'This challenge is not in dispute',
  reversalNotCovered:
    'The earlier winner no longer holds the winnings, so the payout cannot be reversed. ' +
    'Adjust their balance first, or award the challenge to them.',
  verificationNotFound: 'Verification not found',
  verificationApproved: 'This verification has already been approved',
  verificationRejected: 'This verification has already been rejected',
  rejectionNoteRequired: 'Please tell the player why the licence was rejected',
  cannotSuspendSelf: 'You cannot suspend your own account',
  cannotSuspendAdmin: 'An admin account cannot be suspended',
  notSuspended: 'This account is not suspended',
  suspensionReasonRequired: 'Please give the reason the player will see',
  suspensionReasonMax: 'Must be at most 500 characters',
  suspensionEndInvalid: 'Please enter a valid date and time',
  suspensionEndPast: 'The end of the suspension must be in the future',
  userSuspended: 'User suspended',
  userUnsuspended: 'Suspension lifted',
} as const;

export const ADMIN_PAGE_MAX = CHALLENGE_PAGE_MAX;

/** `limit` rows with an id below `before`, newest first. */
export const adminPageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ADMIN_PAGE_MAX).default(50),
  before: beforeCursor(),
});

const note = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(NOTES_MAX, ADMIN_MESSAGES.noteMax);

const optionalNote = z.string().trim().max(NOTES_MAX, ADMIN_MESSAGES.noteMax).optional();

// ---- Completed challenges and disputes -------------------------------------------------------

/**
 * GET /api/admin/challenges answers `challengeSchema[]` (contracts/challenges.ts) as an admin
 * sees it: both players with id, username, email and balance, the scores, winner, screenshot,
 * notes, amount, prize, `deduction` (the fee), `createdAt` and `completedAt` (finalized time).
 */
export const adminChallengeListSchema = z.array(challengeSchema);

/** A disputed challenge, and whether its stakes still wait in escrow (none paid out yet). */
export const adminDisputeSchema = challengeSchema.extend({
  /**
   * true: the dispute came with the submission and no money moved. false: the result was
   * settled first, so resolving it against the paid winner reverses that settlement.
   */
  stakesInEscrow: z.boolean(),
  /**
   * true: a result reported under review was disputed, and the winner's credit is still held
   * (docs/fair-play.md), so any decision moves it from there.
   */
  heldForReview: z.boolean(),
});
export type AdminDispute = z.infer<typeof adminDisputeSchema>;

export const DISPUTE_OUTCOMES = ['creator', 'acceptor', 'refund'] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

export const disputeIdParamsSchema = idParamsSchema('Challenge not found');

/** POST /api/admin/disputes/:id/resolve: award either player, or refund both stakes. */
export const resolveDisputeBodySchema = z.strictObject({
  outcome: z.enum(DISPUTE_OUTCOMES, { error: ADMIN_MESSAGES.outcomeInvalid }),
  note: note(ADMIN_MESSAGES.noteRequired),
});
export type ResolveDisputeBody = z.input<typeof resolveDisputeBodySchema>;

// ---- Users -----------------------------------------------------------------------------------

/**
 * DELETE /api/admin/users/:id: the body is optional (docs/product.md#calls sends none; Fastify then
 * has null).
 */
export const deleteUserBodySchema = z.strictObject({ reason: optionalNote }).nullish();

export const deleteUserResponseSchema = z.object({
  message: z.string(),
  userId: z.number().int(),
  /** Open challenges of theirs, cancelled with the stake refunded before the sweep. */
  cancelledChallengeIds: z.array(z.number().int()),
  /** Accepted challenges they played in, now in the dispute queue. */
  disputedChallengeIds: z.array(z.number().int()),
  /** Pending payouts, failed so the held amount returns before the sweep. */
  failedPayoutIds: z.array(z.number().int()),
  /** Dollars moved from their wallet to `house:unclaimed`. */
  unclaimed: z.number(),
});
export type DeleteUserResponse = z.infer<typeof deleteUserResponseSchema>;

// ---- Suspensions (docs/fair-play.md)
// -----------------------------------------------------------------

export const SUSPENSION_REASON_MAX = 500;

/**
 * POST /api/admin/users/:id/suspend. `until` is an ISO 8601 time with its offset; without it the
 * suspension lasts until an admin lifts it. The server checks that it lies in the future.
 */
export const suspendUserBodySchema = z.strictObject({
  reason: z
    .string({ error: ADMIN_MESSAGES.suspensionReasonRequired })
    .trim()
    .min(1, ADMIN_MESSAGES.suspensionReasonRequired)
    .max(SUSPENSION_REASON_MAX, ADMIN_MESSAGES.suspensionReasonMax),
  until: z.iso.datetime({ offset: true, error: ADMIN_MESSAGES.suspensionEndInvalid }).optional(),
});
export type SuspendUserBody = z.input<typeof suspendUserBodySchema>;

export const suspendUserResponseSchema = z.object({
  message: z.string(),
  userId: z.number().int(),
  suspension: suspensionSchema,
  /** Open challenges of theirs, cancelled with the stake refunded. */
  cancelledChallengeIds: z.array(z.number().int()),
});
export type SuspendUserResponse = z.infer<typeof suspendUserResponseSchema>;

/** POST /api/admin/users/:id/unsuspend: the body, a note for the audit log, is optional. */
export const unsuspendUserBodySchema = z.strictObject({ reason: optionalNote }).nullish();

export const unsuspendUserResponseSchema = z.object({
  message: z.string(),
  userId: z.number().int(),
});

// ---- ID verification -------------------------------------------------------------------------

export const LICENSE_REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const adminVerificationSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  status: z.enum(LICENSE_REVIEW_STATUSES),
  uploadId: z.string(),
  /** The licence itself, served to admins only (`GET /api/uploads/:id`, an attachment). */
  fileUrl: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
  note: z.string().nullable(),
  reviewedBy: z.number().int().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminVerification = z.infer<typeof adminVerificationSchema>;

export const adminVerificationsQuerySchema = adminPageQuerySchema.extend({
  status: z.enum(LICENSE_REVIEW_STATUSES).optional(),
});

export const verificationIdParamsSchema = idParamsSchema(ADMIN_MESSAGES.verificationNotFound);

export const approveVerificationBodySchema = z.strictObject({ note: optionalNote }).nullish();
export const rejectVerificationBodySchema = z.strictObject({
  note: note(ADMIN_MESSAGES.rejectionNoteRequired),
});

// ---- Audit log -------------------------------------------------------------------------------

export const AUDIT_ACTIONS = [
  'balance.adjust',
  'user.delete',
  'payout.complete',
  'payout.fail',
  /** An admin's APPROVE & SEND of a payout that waited for review (docs/payouts.md). */
  'payout.approve',
  'dispute.resolve',
  'verification.approve',
  'verification.reject',
  'user.suspend',
  'user.unsuspend',
  'report.resolve',
  /** A player moved to another US state (docs/responsible-play.md): the actor is the player. */
  'user.state_change',
  /**
   * A player took a time-out or excluded themselves (docs/responsible-play.md): the actor is the
   * player.
   */
  'user.play_break',
  /**
   * A player changed their own deposit limits (docs/responsible-play.md): the actor is the player.
   */
  'user.deposit_limits',
  /** A player closed their own account (docs/responsible-play.md): the actor is the player. */
  'user.close',
  /** An admin downloaded a year's tax report, with the players' names and addresses in it. */
  'tax_report.export',
  /**
   * An admin downloaded one of the CSV exports of docs/operator-tools.md (transfers, payments, …).
   */
  'insights.export',
  /** An admin wrote a note on a player's page (docs/operator-tools.md). */
  'player.note',
  /** An admin created, cancelled (refunding the entries) or decided a match of a tournament. */
  'tournament.create',
  'tournament.cancel',
  'tournament.resolve',
  /**
   * An admin cleared the link between two accounts that share a device, with a note
   * (docs/accounts.md#devices): they may play each other.
   */
  'user.link_cleared',
  /**
   * An admin lifted the money lock a card dispute set, once the player owed nothing
   * (docs/chargebacks.md).
   */
  'user.money_lock_lifted',
  /** An admin submitted a card dispute's evidence to the bank (docs/chargebacks.md). */
  'chargeback.evidence_submit',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const jsonSchema: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonSchema),
    z.record(z.string(), jsonSchema),
  ]),
);

export const auditEntrySchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  actor: z.object({ id: z.number().int(), username: z.string() }),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ type: z.string(), id: z.string() }),
  /** What changed, e.g. `{ amountCents: "-500", balanceAfterCents: "1200" }`: cents as text. */
  details: z.record(z.string(), jsonSchema),
  reason: z.string().nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = adminPageQuerySchema.extend({
  // Audit entries have 64-bit ids.
  before: beforeCursor(BIGINT_ID_MAX),
  action: z.enum(AUDIT_ACTIONS).optional(),
  targetType: z.string().max(40).optional(),
  targetId: z.string().max(40).optional(),
});

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  /** Pass as `before` to get the next (older) page; null when there is none. */
  nextBefore: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

// ---- Ledger health ---------------------------------------------------------------------------

/** GET /api/admin/ledger-health: the money core's invariant check (docs/money-and-ledger.md). */
export const ledgerHealthSchema = z.object({
  ok: z.boolean(),
  problems: z.array(z.string()),
  checkedAt: z.string(),
});
export type LedgerHealth = z.infer<typeof ledgerHealthSchema>;
