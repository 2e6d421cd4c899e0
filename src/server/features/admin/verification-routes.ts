import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADMIN_MESSAGES,
  adminVerificationSchema,
  adminVerificationsQuerySchema,
  approveVerificationBodySchema,
  rejectVerificationBodySchema,
  verificationIdParamsSchema,
  type AdminVerification,
} from '#shared/contracts/admin.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../../plugins/access.ts';
import {
  decideVerification,
  findVerification,
  listVerifications,
  type VerificationWithContext,
} from '../accounts/index.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

function toAdminVerification({
  verification,
  username,
  upload,
}: VerificationWithContext): AdminVerification {
  return {
    id: verification.id,
    userId: verification.userId,
    username,
    status: verification.status,
    uploadId: upload.id,
    fileUrl: `/api/uploads/${upload.id}`,
    contentType: upload.contentType,
    sizeBytes: upload.sizeBytes,
    note: verification.note,
    reviewedBy: verification.reviewedBy,
    reviewedAt: verification.reviewedAt?.toISOString() ?? null,
    createdAt: verification.createdAt.toISOString(),
  };
}

/** ID verification: the queue of uploaded licences and the admin's decision on each. */
export const adminVerificationRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    async function viewOf(id: number) {
      const row = await findVerification(ctx.db, id);
      if (!row) throw new AppError('NOT_FOUND', ADMIN_MESSAGES.verificationNotFound);
      return toAdminVerification(row);
    }

    app.get(
      '/api/admin/verifications',
      {
        config: { access: 'admin' },
        schema: {
          querystring: adminVerificationsQuerySchema,
          response: { 200: z.array(adminVerificationSchema), ...errors },
        },
      },
      async (request) => (await listVerifications(ctx.db, request.query)).map(toAdminVerification),
    );

    app.post(
      '/api/admin/verifications/:id/approve',
      {
        config: { access: 'admin' },
        schema: {
          params: verificationIdParamsSchema,
          body: approveVerificationBodySchema,
          response: { 200: adminVerificationSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await decideVerification(ctx, request.params.id, {
          adminId: admin.id,
          outcome: 'approved',
          note: request.body?.note,
        });
        return viewOf(request.params.id);
      },
    );

    app.post(
      '/api/admin/verifications/:id/reject',
      {
        config: { access: 'admin' },
        schema: {
          params: verificationIdParamsSchema,
          body: rejectVerificationBodySchema,
          response: { 200: adminVerificationSchema, ...errors },
        },
      },
      async (request) => {
        const admin = requireUser(request);
        await decideVerification(ctx, request.params.id, {
          adminId: admin.id,
          outcome: 'rejected',
          note: request.body.note,
        });
        return viewOf(request.params.id);
      },
    );
  };
