import { z } from '../validation.ts';
import { idFromJson, idParamsSchema } from './ids.ts';

/**
 * Player reports (docs/fair-play.md): a signed-in player reports another, perhaps naming a
 * challenge they played together; the report waits in the admins' REPORTS queue until one dismisses
 * it or marks it actioned.
 */

export const REPORT_REASON_MAX = 1000;
export const REPORT_NOTE_MAX = 1000;

export const REPORT_MESSAGES = {
  playerNotFound: 'Player not found',
  reasonRequired: 'Please say what happened',
  reasonMax: `Must be at most ${REPORT_REASON_MAX} characters`,
  challengeInvalid: 'Challenge not found',
  cannotReportSelf: 'You cannot report yourself',
  challengeNotShared: 'You can only name a challenge you played against this player',
  tooMany: 'You have sent too many reports. Please try again later.',
  received: 'Thank you: an admin will look at your report.',
  reportNotFound: 'Report not found',
  alreadyResolved: 'This report has already been resolved',
  actionInvalid: 'Please choose whether to dismiss the report or mark it actioned',
  noteRequired: 'Please explain the decision',
  noteMax: `Must be at most ${REPORT_NOTE_MAX} characters`,
} as const;

/** POST /api/players/:username/report; the name is looked up whatever its case. */
export const reportPlayerParamsSchema = z.object({
  username: z
    .string()
    .min(1, REPORT_MESSAGES.playerNotFound)
    .max(64, REPORT_MESSAGES.playerNotFound),
});

export const reportPlayerBodySchema = z.strictObject({
  reason: z
    .string({ error: REPORT_MESSAGES.reasonRequired })
    .trim()
    .min(1, REPORT_MESSAGES.reasonRequired)
    .max(REPORT_REASON_MAX, REPORT_MESSAGES.reasonMax),
  /** A challenge the two played together, which the admin can then look at. */
  challengeId: idFromJson(REPORT_MESSAGES.challengeInvalid).optional(),
});
export type ReportPlayerBody = z.input<typeof reportPlayerBodySchema>;

export const reportPlayerResponseSchema = z.object({
  id: z.number().int(),
  message: z.string(),
});
export type ReportPlayerResponse = z.infer<typeof reportPlayerResponseSchema>;

// ---- The admins' queue ----------------------------------------------------------------------

export const REPORT_STATUSES = ['open', 'dismissed', 'actioned'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What an admin does with a report: nothing to act on, or acted on (a suspension, say). */
export const REPORT_ACTIONS = ['dismiss', 'actioned'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

const person = z.object({ id: z.number().int(), username: z.string() });

export const adminReportSchema = z.object({
  id: z.number().int(),
  status: z.enum(REPORT_STATUSES),
  reason: z.string(),
  challengeId: z.number().int().nullable(),
  reporter: person,
  reported: person,
  createdAt: z.string(),
  resolvedBy: person.nullable(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;

export const ADMIN_REPORTS_PAGE_MAX = 100;

/** GET /api/admin/reports: open reports first, then the resolved ones, newest first in each. */
export const adminReportsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ADMIN_REPORTS_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

export const reportIdParamsSchema = idParamsSchema(REPORT_MESSAGES.reportNotFound);

/** POST /api/admin/reports/:id/resolve. */
export const resolveReportBodySchema = z.strictObject({
  action: z.enum(REPORT_ACTIONS, { error: REPORT_MESSAGES.actionInvalid }),
  note: z
    .string({ error: REPORT_MESSAGES.noteRequired })
    .trim()
    .min(1, REPORT_MESSAGES.noteRequired)
    .max(REPORT_NOTE_MAX, REPORT_MESSAGES.noteMax),
});
export type ResolveReportBody = z.input<typeof resolveReportBodySchema>;
