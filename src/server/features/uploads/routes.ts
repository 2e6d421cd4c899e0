import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { challenges } from '../../db/schema/challenges.ts';
import { uploads, type Upload } from '../../db/schema/uploads.ts';
import type { User } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { requireViewer } from '../../plugins/access.ts';
import { matchPlayersOfUpload } from '../tournaments/evidence.ts';
import type { FileStore } from './store.ts';

const NOT_FOUND = 'File not found';

async function mayRead(ctx: AppContext, upload: Upload, viewer: User): Promise<boolean> {
  if (viewer.isAdmin) return true;
  // A driver's licence is for admins only (issue 6), its owner included: a stolen session must
  // not be a way to download someone's identity document.
  if (upload.purpose === 'license') return false;
  if (upload.ownerId === viewer.id) return true;
  // A tournament match's evidence is for both players of that match (decision 0020).
  if (upload.challengeId === null) {
    if (upload.purpose !== 'evidence') return false;
    return (await matchPlayersOfUpload(ctx, upload.id))?.includes(viewer.id) ?? false;
  }
  // A match screenshot is evidence both players may look at.
  const [challenge] = await ctx.db
    .select({ creatorId: challenges.creatorId, acceptorId: challenges.acceptorId })
    .from(challenges)
    .where(eq(challenges.id, upload.challengeId))
    .limit(1);
  return challenge?.creatorId === viewer.id || challenge?.acceptorId === viewer.id;
}

export const uploadRoutes =
  (ctx: AppContext, store: FileStore): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/uploads/:id',
      {
        config: { access: 'user' },
        schema: {
          params: z.object({ id: z.uuid({ error: NOT_FOUND }) }),
          // The file itself: a stream, which Fastify sends as it is, without serializing.
          response: {
            200: z.custom<Readable>(),
            401: errorBodySchema,
            404: errorBodySchema,
            400: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const viewer = requireViewer(request);
        const [upload] = await ctx.db
          .select()
          .from(uploads)
          .where(eq(uploads.id, request.params.id))
          .limit(1);
        // Someone else's file answers exactly like a missing one: ids reveal nothing.
        if (
          !upload ||
          !(await mayRead(ctx, upload, viewer)) ||
          !(await store.exists(upload.storageKey))
        ) {
          throw new AppError('NOT_FOUND', NOT_FOUND);
        }
        return reply
          .header('content-type', upload.contentType)
          .header('content-length', String(upload.sizeBytes))
          .header('content-disposition', `attachment; filename="${upload.storageKey}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(store.read(upload.storageKey));
      },
    );
  };
