import { asc, eq } from 'drizzle-orm';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  CHALLENGE_MESSAGES,
  EVIDENCE_MESSAGES,
  EVIDENCE_STATEMENT_MAX,
  EVIDENCE_VIDEO_BYTES_MAX,
  type Evidence,
} from '#shared/contracts/challenges.ts';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import type { AppContext } from '../../context.ts';
import { challengeEvidence } from '../../db/schema/fair-play.ts';
import { uploads, type Upload } from '../../db/schema/uploads.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { EVIDENCE_TYPES } from '../../lib/file-type.ts';
import { assertNoControlCharacters } from '../../plugins/text-guard.ts';
import { storeUpload, type FileStore, type MatchFileReaders } from '../uploads/index.ts';
import { findChallenge } from './repository.ts';
import { requireParticipant } from './review.ts';

const isVideo = (type: string) => type.startsWith('video/');

/**
 * The multipart parser's refusal of the body itself: the client's doing. Busboy reports a
 * malformed body (a part cut short, a broken header) with plain Errors.
 */
function partsError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError('PAYLOAD_TOO_LARGE', EVIDENCE_MESSAGES.videoTooLarge);
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status < 500) return error;
  return new AppError('VALIDATION_FAILED', EVIDENCE_MESSAGES.empty);
}

/**
 * Reads a player's evidence from a multipart body (docs/fair-play.md): a `statement` of up to 2,000
 * characters and/or one `file`, an image (25 MB) or an MP4 or WebM video (100 MB), recognised by
 * its bytes and stored. Challenges and tournament matches (decision 0020) both take it so.
 */
export async function receiveEvidence(
  ctx: AppContext,
  store: FileStore,
  request: FastifyRequest,
  userId: number,
  challengeId?: number,
): Promise<{ statement: string | null; upload: Upload | null }> {
  if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', EVIDENCE_MESSAGES.empty);

  let statement: string | null = null;
  let upload: Upload | null = null;
  const body = request.parts({
    limits: { fileSize: EVIDENCE_VIDEO_BYTES_MAX, files: 1, fields: 2, parts: 3 },
  });
  const parts = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      throw partsError(error);
    }
    if (next.done) break;
    const part = next.value;
    if (part.type === 'field') {
      if (part.fieldname !== 'statement' || typeof part.value !== 'string') continue;
      assertNoControlCharacters(part.value, 'statement');
      const text = part.value.trim();
      if (text.length > EVIDENCE_STATEMENT_MAX) {
        throw new AppError('VALIDATION_FAILED', EVIDENCE_MESSAGES.statementMax, {
          fields: { statement: EVIDENCE_MESSAGES.statementMax },
        });
      }
      statement = text || null;
    } else if (part.fieldname === 'file') {
      upload = await storeEvidenceFile(ctx, store, part, userId, challengeId);
    } else {
      part.file.resume();
    }
  }
  if (statement === null && upload === null) {
    throw new AppError('VALIDATION_FAILED', EVIDENCE_MESSAGES.empty, {
      fields: { statement: EVIDENCE_MESSAGES.empty },
    });
  }
  return { statement, upload };
}

/** Adds a player's evidence to a disputed challenge (docs/fair-play.md). */
export async function addEvidence(
  ctx: AppContext,
  store: FileStore,
  request: FastifyRequest,
  challengeId: number,
  userId: number,
): Promise<Evidence> {
  const challenge = await findChallenge(ctx.db, challengeId);
  if (!challenge) throw new AppError('NOT_FOUND', CHALLENGE_MESSAGES.notFound);
  requireParticipant(challenge, userId);
  if (challenge.status !== 'disputed')
    throw new AppError('CONFLICT', EVIDENCE_MESSAGES.notDisputed);
  const { statement, upload } = await receiveEvidence(ctx, store, request, userId, challengeId);
  const [row] = await ctx.db
    .insert(challengeEvidence)
    .values({ challengeId, userId, statement, uploadId: upload?.id ?? null })
    .returning();
  if (!row) throw new Error('insert returned no evidence');
  const [author] = await ctx.db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  return toEvidence(row, author?.username ?? '', upload);
}

async function storeEvidenceFile(
  ctx: AppContext,
  store: FileStore,
  file: MultipartFile,
  ownerId: number,
  challengeId: number | undefined,
): Promise<Upload> {
  try {
    return await storeUpload(ctx.db, store, file, {
      field: 'file',
      allowed: EVIDENCE_TYPES,
      purpose: 'evidence',
      ownerId,
      ...(challengeId === undefined ? {} : { challengeId }),
      maxBytesFor: (type) => (isVideo(type) ? EVIDENCE_VIDEO_BYTES_MAX : UPLOAD_BYTES_MAX),
      tooLargeMessageFor: (type) =>
        isVideo(type) ? EVIDENCE_MESSAGES.videoTooLarge : UPLOAD_MESSAGES.tooLarge,
    });
  } catch (error) {
    // The upload rules' words are for licences and screenshots; evidence may also be a video.
    if (error instanceof AppError && error.message === UPLOAD_MESSAGES.invalidType)
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', EVIDENCE_MESSAGES.invalidType);
    throw error;
  }
}

export function toEvidence(
  row: Pick<typeof challengeEvidence.$inferSelect, 'id' | 'userId' | 'statement' | 'createdAt'>,
  username: string,
  upload: Upload | null,
): Evidence {
  return {
    id: row.id,
    userId: row.userId,
    username,
    statement: row.statement,
    file: upload
      ? {
          url: `/api/uploads/${upload.id}`,
          contentType: upload.contentType,
          name: upload.originalName,
        }
      : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Both sides' evidence, oldest first: for the two players and the admins only. */
export async function listEvidence(ctx: AppContext, challengeId: number): Promise<Evidence[]> {
  const rows = await ctx.db
    .select({ evidence: challengeEvidence, username: users.username, upload: uploads })
    .from(challengeEvidence)
    .innerJoin(users, eq(users.id, challengeEvidence.userId))
    .leftJoin(uploads, eq(uploads.id, challengeEvidence.uploadId))
    .where(eq(challengeEvidence.challengeId, challengeId))
    .orderBy(asc(challengeEvidence.id));
  return rows.map((row) => toEvidence(row.evidence, row.username, row.upload));
}

/**
 * Who may read a file of a challenge (a screenshot, dispute evidence): its two players. Undefined
 * for a file that belongs to no challenge.
 */
export const challengeFileReaders: MatchFileReaders = async (ctx, upload, viewer) => {
  if (upload.challengeId === null) return undefined;
  const challenge = await findChallenge(ctx.db, upload.challengeId);
  return challenge?.creatorId === viewer.id || challenge?.acceptorId === viewer.id;
};
