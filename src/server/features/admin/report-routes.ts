import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  adminReportSchema,
  adminReportsQuerySchema,
  REPORT_MESSAGES,
  reportIdParamsSchema,
  resolveReportBodySchema,
  type AdminReport,
} from '#shared/contracts/reports.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../../plugins/access.ts';
import { findReport, listReports, resolveReport, type ReportWithPeople } from '../reports/index.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

function toAdminReport({ report, reporter, reported, resolver }: ReportWithPeople): AdminReport {
  return {
    id: report.id,
    status: report.status,
    reason: report.reason,
    challengeId: report.challengeId,
    reporter,
    reported,
    createdAt: report.createdAt.toISOString(),
    resolvedBy: report.resolvedBy === null ? null : resolver,
    resolvedAt: report.resolvedAt?.toISOString() ?? null,
    resolutionNote: report.resolutionNote,
  };
}

/** The REPORTS queue: players' reports about each other, and the admins' decisions on them. */
export const adminReportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/reports',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminReportsQuerySchema,
          response: { 200: z.array(adminReportSchema), ...errors },
        },
      },
      async (request) => (await listReports(ctx.db, request.query)).map(toAdminReport),
    );

    app.post(
      '/api/admin/reports/:id/resolve',
      {
        config: { access: 'admin' },
        schema: {
          params: reportIdParamsSchema,
          body: resolveReportBodySchema,
          response: { 200: adminReportSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await resolveReport(ctx, {
          adminId: admin.id,
          reportId: request.params.id,
          ...request.body,
        });
        request.log.info({ adminId: admin.id, reportId: request.params.id }, 'report resolved');
        const row = await findReport(ctx.db, request.params.id);
        if (!row) throw new AppError('NOT_FOUND', REPORT_MESSAGES.reportNotFound);
        return toAdminReport(row);
      },
    );
  };
