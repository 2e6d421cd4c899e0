import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/contracts/errors.ts';
import { z } from '#shared/validation.ts';
import type { AppContext } from '../../context.ts';
import { uploads, type Upload } from '../../db/schema/uploads.ts';
import type { User } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { requireViewer } from '../../plugins/access.ts';
import type { FileStore } from './store.ts';

const NOT_FOUND = 'File not found';

/**
 * Whether `viewer` may read a file that belongs to a match, said by the feature that holds the
 * match (a challenge's players, a tournament match's players); undefined when the file is none
 * of its matches'.
 */
export type MatchFileReaders = (
  ctx: AppContext,
  upload: Upload,
  viewer: User,
) => Promise<boolean | undefined>;

async function mayRead(
  ctx: AppContext,
  upload: Upload,
  viewer: User,
  matchReaders: readonly MatchFileReaders[],
): Promise<boolean> {
  if (viewer.isAdmin) return true;
  // A driver's licence is for admins only (issue 6), its owner included: a stolen session must
  // not be a way to download someone's identity document.
  if (upload.purpose === 'license') return false;
  if (upload.ownerId === viewer.id) return true;
  // A match's screenshots and evidence are for both of its players.
  for (const readers of matchReaders) {
    const answer = await readers(ctx, upload, viewer);
    if (answer !== undefined) return answer;
  }
  return false;
}

/**
 * GET /api/uploads/:id: a stored file, to those who may read it. `matchReaders` are the features'
 * rules for files of their matches.
 */
export const uploadRoutes =
  (
    ctx: AppContext,
    store: FileStore,
    matchReaders: readonly MatchFileReaders[],
  ): FastifyPluginAsyncZod =>
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
          !(await mayRead(ctx, upload, viewer, matchReaders)) ||
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
