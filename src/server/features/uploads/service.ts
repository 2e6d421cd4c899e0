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

/**
 * Passes the bytes through, holding back the first ones until they show the file's type, and
 * refusing the stream as soon as that type is not allowed.
 */
function typeGate(
  allowed: ReadonlySet<DetectedType>,
  onType: (type: DetectedType) => void,
): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let decided = false;
  const decide = async (): Promise<Buffer> => {
    decided = true;
    const head = Buffer.concat(held);
    held = [];
    const type = await detectFileType(head.subarray(0, FILE_TYPE_SNIFF_BYTES));
    if (!type || !allowed.has(type))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', UPLOAD_MESSAGES.invalidType);
    onType(type);
    return head;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (decided) {
        callback(null, chunk);
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < FILE_TYPE_SNIFF_BYTES) {
        callback();
        return;
      }
      decide().then(
        (head) => callback(null, head),
        (error: unknown) => callback(error as Error),
      );
    },
    flush(callback) {
      if (decided) {
        callback();
        return;
      }
      decide().then(
        (head) => callback(null, head),
        (error: unknown) => callback(error as Error),
      );
    },
  });
}

export interface UploadTarget {
  field: string;
  allowed: ReadonlySet<DetectedType>;
  purpose: UploadPurpose;
  ownerId: number;
  challengeId?: number;
  /** The largest file of each kind; 25 MB unless a type says otherwise (a match's video). */
  maxBytesFor?: (type: DetectedType) => number;
  /** What a file over that size is told; the 25 MB message unless a type says otherwise. */
  tooLargeMessageFor?: (type: DetectedType) => string;
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
  return storeUpload(db, store, file, target);
}

/**
 * Stores one file of a multipart body that the caller is reading part by part: its bytes must be
 * one of the allowed types and within the size of that type. Stored under a server-made name and
 * recorded; refused otherwise, with nothing left behind.
 */
export async function storeUpload(
  db: Executor,
  store: FileStore,
  file: MultipartFile,
  target: UploadTarget,
): Promise<Upload> {
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
  const maxBytes = type ? (target.maxBytesFor?.(type) ?? UPLOAD_BYTES_MAX) : UPLOAD_BYTES_MAX;
  if (file.file.truncated || !type || written.sizeBytes > maxBytes) {
    await written.discard();
    throw type
      ? new AppError(
          'PAYLOAD_TOO_LARGE',
          target.tooLargeMessageFor?.(type) ?? UPLOAD_MESSAGES.tooLarge,
        )
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
