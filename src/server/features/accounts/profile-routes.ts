import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicUserSchema, updateStateBodySchema } from '#shared/contracts/auth.ts';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import {
  LICENSE_FIELD,
  PROFILE_MESSAGES,
  profileConfigSchema,
  updateEmailBodySchema,
  uploadLicenseResponseSchema,
  verificationStatusSchema,
  type VerificationStatus,
} from '#shared/contracts/profile.ts';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema/users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { emailChangedMail } from './security-mail.ts';
import { recordAudit } from '../audit/index.ts';
import { queueVerificationMail } from './email-verification.ts';
import { enqueueMail } from '../mail/index.ts';
import { DOCUMENT_TYPES } from '../../lib/file-type.ts';
import { hitRateLimit } from '../../lib/rate-limiter.ts';
import { requireUser } from '../../plugins/access.ts';
import { receiveUpload, type FileStore } from '../uploads/index.ts';
import { hasVerifiedEmail, loadPublicUser } from './public-user.ts';
import { findLatestVerification, submitLicense } from './id-verification.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/**
 * The player's own account (docs/product.md#screens Profile): e-mail, driver's licence,
 * verification status.
 */
export const profileRoutes =
  (ctx: AppContext, store: FileStore): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/profile/config',
      {
        config: { access: 'user' },
        schema: { response: { 200: profileConfigSchema, ...errors } },
      },
      async () => ({
        freeSiteUrl: ctx.env.FREE_SITE_URL ?? null,
        excludedStates: ctx.env.EXCLUDED_STATES,
      }),
    );

    app.post(
      '/api/user/update-email',
      {
        config: { access: 'user' },
        schema: { body: updateEmailBodySchema, response: { 200: publicUserSchema, ...errors } },
      },
      async (request) => {
        const user = requireUser(request);
        const { email } = request.body;
        const now = ctx.clock();
        // A new address must be proven again (docs/accounts.md#account-security); the same address
        // keeps its proof.
        const { row: updated, mailed } = await inTransaction(
          ctx.db,
          async ({ tx, afterCommit }) => {
            const [row] = await tx
              .update(users)
              .set({
                email,
                emailVerifiedAt: sql`case when ${users.email} = ${email} then ${users.emailVerifiedAt} end`,
              })
              .where(eq(users.id, user.id))
              .returning();
            if (!row) throw new Error(`signed-in user ${user.id} has no row`);
            // The old, proven address hears of the change: if it was not the player, it is their
            // warning before a reset link can go to the new one.
            if (hasVerifiedEmail(user) && user.email !== email) {
              await enqueueMail(tx, [emailChangedMail(user, email, now)]);
              afterCommit(() => ctx.wakeMail());
            }
            if (row.emailVerifiedAt) return { row, mailed: false };
            // The SPEC's update always succeeds; past the limit it just mails no more links, so
            // nobody can flood a stranger's mailbox by changing their own address back and forth.
            const check = await hitRateLimit(
              tx,
              ctx.rateLimits.verificationMailPerUser,
              String(user.id),
              now,
            );
            if (check.exceeded) return { row, mailed: false };
            await queueVerificationMail(tx, ctx.linkBase, row, email, now);
            return { row, mailed: true };
          },
        );
        if (mailed) ctx.wakeMail();
        await ctx.bus.publish({ type: 'user-changed', userId: user.id });
        return loadPublicUser(ctx.db, updated, ctx.clock());
      },
    );

    app.patch(
      '/api/user',
      {
        config: { access: 'user' },
        schema: { body: updateStateBodySchema, response: { 200: publicUserSchema, ...errors } },
      },
      async (request) => {
        const user = requireUser(request);
        const { state } = request.body;
        // The player's word, recorded with what it replaced (docs/responsible-play.md). Moving into
        // an excluded state is allowed: from then on deposits and stakes are refused, payouts never
        // are.
        const updated = await inTransaction(ctx.db, async ({ tx }) => {
          const [before] = await tx
            .select({ state: users.state })
            .from(users)
            .where(eq(users.id, user.id))
            .for('update');
          const [row] = await tx
            .update(users)
            .set({ state })
            .where(eq(users.id, user.id))
            .returning();
          if (!before || !row) throw new Error(`signed-in user ${user.id} has no row`);
          if (before.state !== state) {
            await recordAudit(tx, {
              actorUserId: user.id,
              action: 'user.state_change',
              target: { type: 'user', id: user.id },
              details: { from: before.state, to: state },
            });
          }
          return row;
        });
        await ctx.bus.publish({ type: 'user-changed', userId: user.id });
        return loadPublicUser(ctx.db, updated, ctx.clock());
      },
    );

    app.post(
      '/api/user/upload-license',
      {
        config: { access: 'user' },
        schema: {
          response: {
            201: uploadLicenseResponseSchema,
            ...errors,
            413: errorBodySchema,
            415: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        // The file is checked by its bytes, stored under a server-made name and readable by
        // admins only (GET /api/uploads/:id refuses licences to everyone else, owner included).
        const upload = await receiveUpload(ctx.db, store, request, {
          field: LICENSE_FIELD,
          allowed: DOCUMENT_TYPES,
          purpose: 'license',
          ownerId: user.id,
        });
        const verification = await submitLicense(ctx.db, user.id, upload.id, ctx.clock());
        request.log.info({ userId: user.id, verificationId: verification.id }, 'licence uploaded');
        return reply
          .code(201)
          .send({ message: PROFILE_MESSAGES.licenseUploaded, status: verification.status });
      },
    );

    app.get(
      '/api/user/verification',
      {
        config: { access: 'user' },
        schema: { response: { 200: verificationStatusSchema, ...errors } },
      },
      async (request): Promise<VerificationStatus> => {
        const latest = await findLatestVerification(ctx.db, requireUser(request).id);
        if (!latest) return { status: 'none', note: null, submittedAt: null, reviewedAt: null };
        return {
          status: latest.status,
          note: latest.note,
          submittedAt: latest.createdAt.toISOString(),
          reviewedAt: latest.reviewedAt?.toISOString() ?? null,
        };
      },
    );
  };
