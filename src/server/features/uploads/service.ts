import { randomUUID } from 'node:crypto';
import { finished, Transform, type Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import type { Executor } from '../../db/client.ts';
import { uploads, type Upload, type UploadPurpose } from '../../db/schema/uploads.ts';
import { AppError } from '../../errors.ts';
import { withoutControlCharacters } from '../../plugins/text-guard.ts';
import {
  detectFileType,
  EXTENSION_BY_TYPE,
  FILE_TYPE_SNIFF_BYTES,
  type DetectedType,
} from '../../lib/file-type.ts';
import type { FileStore } from './store.ts';

/** Passes the bytes through, refusing the stream as soon as its first bytes show a wrong type. */
function typeGate(
  allowed: ReadonlySet<DetectedType>,
  onType: (type: DetectedType) => void,
): Transform {
  let head = Buffer.alloc(0);
  let decided = false;
  const decide = (final: boolean): Error | null => {
    if (decided || (!final && head.length < FILE_TYPE_SNIFF_BYTES)) return null;
    decided = true;
    const type = detectFileType(head);
    if (!type || !allowed.has(type))
      return new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.invalidType);
    onType(type);
    return null;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!decided) head = Buffer.concat([head, chunk]).subarray(0, FILE_TYPE_SNIFF_BYTES);
      callback(decide(false), chunk);
    },
    flush(callback) {
      callback(decide(true));
    },
  });
}

export interface UploadTarget {
  field: string;
  allowed: ReadonlySet<DetectedType>;
  purpose: UploadPurpose;
  ownerId: number;
  challengeId?: number;
}

/**
 * Receives one multipart file: its field must be `target.field`, its bytes one of the allowed
 * types and at most 25 MB. It is stored under a server-made name and recorded.
 */
export async function receiveUpload(
  db: Executor,
  store: FileStore,
  request: FastifyRequest,
  target: UploadTarget,
): Promise<Upload> {
  if (!request.isMultipart()) throw new AppError('VALIDATION_FAILED', UPLOAD_MESSAGES.noFile);
  let file: MultipartFile | undefined;
  try {
    file = await request.file({ limits: { fileSize: UPLOAD_BYTES_MAX, files: 1, fields: 5 } });
  } catch (error) {
    throw fromParser(error);
  }
  if (!file || file.fieldname !== target.field) {
    file?.file.resume();
    throw new AppError('VALIDATION_FAILED', UPLOAD_MESSAGES.noFile, {
      fields: { [target.field]: UPLOAD_MESSAGES.noFile },
    });
  }
  let type: DetectedType | undefined;
  let written: Awaited<ReturnType<FileStore['write']>>;
  const source = file.file as Readable;
  const gate = typeGate(target.allowed, (t) => (type = t));
  // pipe() does not forward errors: a part cut short ("Part terminated early") would leave the
  // gate open and the request waiting forever. finished() also reports a stream that busboy had
  // already failed before we got to it.
  finished(source, (error) => {
    if (error) gate.destroy(fromParser(error) as Error);
  });
  try {
    written = await store.write(source.pipe(gate));
  } catch (error) {
    file.file.resume();
    throw translate(error);
  }
  if (file.file.truncated || !type) {
    await written.discard();
    throw type
      ? new AppError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.tooLarge)
      : new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.invalidType);
  }
  // The file is made permanent before its row exists: a crash in between leaves an unreferenced
  // file, never a row pointing at nothing.
  const id = randomUUID();
  const storageKey = `${id}.${EXTENSION_BY_TYPE[type]}`;
  await written.commit(storageKey);
  const [row] = await db
    .insert(uploads)
    .values({
      id,
      ownerId: target.ownerId,
      challengeId: target.challengeId ?? null,
      purpose: target.purpose,
      storageKey,
      contentType: type,
      sizeBytes: written.sizeBytes,
      // The browser's name for the file, kept for the admin: never a reason to refuse it.
      originalName: withoutControlCharacters(file.filename).slice(0, 200),
    })
    .returning();
  if (!row) throw new Error('insert returned no upload');
  return row;
}

/**
 * An error of the multipart parser. Busboy reports a malformed body (no boundary, a part cut
 * short, a broken header) with plain Errors; those are the client's doing, not ours.
 */
function fromParser(error: unknown): unknown {
  const translated = translate(error);
  if (translated instanceof AppError) return translated;
  const status = (error as { statusCode?: number }).statusCode;
  if (status !== undefined && status < 500) return translated;
  return new AppError('VALIDATION_FAILED', UPLOAD_MESSAGES.noFile);
}

function translate(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.tooLarge);
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_FILES_LIMIT') {
    return new AppError('VALIDATION_FAILED', UPLOAD_MESSAGES.noFile);
  }
  return error;
}
