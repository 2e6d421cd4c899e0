import { desc, eq, ne, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { REPORT_MESSAGES, type ReportAction } from '#shared/contracts/reports.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { playerReports, type PlayerReport } from '../../db/schema/fair-play.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { recordAudit } from '../audit/index.ts';
import { findChallenge } from '../challenges/index.ts';
import { findUserByUsername } from '../accounts/index.ts';

export interface ReportInput {
  reporterId: number;
  username: string;
  reason: string;
  challengeId: number | undefined;
}

/**
 * Files a player's report about another player (docs/fair-play.md) into the admins' queue. Every
 * attempt counts against the reporter's limit, found or not, so that the route cannot be used
 * to try names or to flood the queue.
 */
export async function fileReport(ctx: AppContext, input: ReportInput): Promise<number> {
  const now = ctx.clock();
  const check = await hitRateLimit(
    ctx.db,
    ctx.rateLimits.reportPerUser,
    `user:${input.reporterId}`,
    now,
  );
  if (check.exceeded) {
    throw new AppError('RATE_LIMITED', REPORT_MESSAGES.tooMany, {
      retryAfter: check.retryAfterSeconds,
    });
  }
  const reported = await findUserByUsername(ctx.db, input.username);
  if (!reported || reported.deletedAt)
    throw new AppError('NOT_FOUND', REPORT_MESSAGES.playerNotFound);
  if (reported.id === input.reporterId)
    throw new AppError('VALIDATION_FAILED', REPORT_MESSAGES.cannotReportSelf);
  if (input.challengeId !== undefined) {
    const challenge = await findChallenge(ctx.db, input.challengeId);
    const players = new Set([challenge?.creatorId, challenge?.acceptorId]);
    if (!players.has(input.reporterId) || !players.has(reported.id)) {
      throw new AppError('VALIDATION_FAILED', REPORT_MESSAGES.challengeNotShared, {
        fields: { challengeId: REPORT_MESSAGES.challengeNotShared },
      });
    }
  }
  const [row] = await ctx.db
    .insert(playerReports)
    .values({
      reporterId: input.reporterId,
      reportedUserId: reported.id,
      challengeId: input.challengeId ?? null,
      reason: input.reason,
      createdAt: now,
    })
    .returning({ id: playerReports.id });
  if (!row) throw new Error('a report insert returned no row');
  return row.id;
}

export interface ReportWithPeople {
  report: PlayerReport;
  reporter: { id: number; username: string };
  reported: { id: number; username: string };
  resolver: { id: number; username: string } | null;
}

const reporters = alias(users, 'reporter');
const reportedUsers = alias(users, 'reported');
const resolvers = alias(users, 'resolver');

function selectReports(db: Executor, where: SQL | undefined) {
  return db
    .select({
      report: playerReports,
      reporter: { id: reporters.id, username: reporters.username },
      reported: { id: reportedUsers.id, username: reportedUsers.username },
      resolver: { id: resolvers.id, username: resolvers.username },
    })
    .from(playerReports)
    .innerJoin(reporters, eq(reporters.id, playerReports.reporterId))
    .innerJoin(reportedUsers, eq(reportedUsers.id, playerReports.reportedUserId))
    .leftJoin(resolvers, eq(resolvers.id, playerReports.resolvedBy))
    .where(where);
}

/**
 * The REPORTS queue: open reports first, newest first, then the resolved ones, newest first.
 * Two reads, each along its own index (the open reports' partial index, the ids), rather than
 * one sort of the whole table.
 */
export async function listReports(
  db: Executor,
  page: { limit: number; offset: number },
): Promise<ReportWithPeople[]> {
  const open = await selectReports(db, eq(playerReports.status, 'open'))
    .orderBy(desc(playerReports.createdAt), desc(playerReports.id))
    .limit(page.offset + page.limit);
  const fromOpen = open.slice(page.offset);
  if (open.length >= page.offset + page.limit) return fromOpen;
  const resolved = await selectReports(db, ne(playerReports.status, 'open'))
    .orderBy(desc(playerReports.id))
    .offset(Math.max(0, page.offset - open.length))
    .limit(page.limit - fromOpen.length);
  return [...fromOpen, ...resolved];
}

export async function findReport(db: Executor, id: number): Promise<ReportWithPeople | undefined> {
  const [row] = await selectReports(db, eq(playerReports.id, id)).limit(1);
  return row;
}

const STATUS_BY_ACTION = { dismiss: 'dismissed', actioned: 'actioned' } as const;

/** An admin closes an open report, once; the audit entry commits with the decision. */
export async function resolveReport(
  ctx: AppContext,
  decision: { adminId: number; reportId: number; action: ReportAction; note: string },
): Promise<void> {
  await inTransaction(ctx.db, async ({ tx }) => {
    const [report] = await tx
      .select()
      .from(playerReports)
      .where(eq(playerReports.id, decision.reportId))
      .limit(1)
      .for('update');
    if (!report) throw new AppError('NOT_FOUND', REPORT_MESSAGES.reportNotFound);
    if (report.status !== 'open') throw new AppError('CONFLICT', REPORT_MESSAGES.alreadyResolved);
    const status = STATUS_BY_ACTION[decision.action];
    await tx
      .update(playerReports)
      .set({
        status,
        resolvedBy: decision.adminId,
        resolvedAt: ctx.clock(),
        resolutionNote: decision.note,
      })
      .where(eq(playerReports.id, report.id));
    await recordAudit(tx, {
      actorUserId: decision.adminId,
      action: 'report.resolve',
      target: { type: 'report', id: report.id },
      details: {
        status,
        reporterId: report.reporterId,
        reportedUserId: report.reportedUserId,
        challengeId: report.challengeId,
      },
      reason: decision.note,
    });
  });
}
