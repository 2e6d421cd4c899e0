import { fileTypeFromBuffer } from 'file-type';

export type DetectedType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/bmp'
  | 'image/tiff'
  | 'image/heic'
  | 'image/heif'
  | 'application/pdf'
  | 'video/mp4'
  | 'video/webm';

/** How many first bytes `file-type` needs to tell every format it knows (its own minimum). */
export const FILE_TYPE_SNIFF_BYTES = 4100;

const KNOWN: ReadonlySet<string> = new Set<DetectedType>([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'image/heic',
  'image/heif',
  'application/pdf',
  'video/mp4',
  'video/webm',
]);

const isKnown = (mime: string): mime is DetectedType => KNOWN.has(mime);

/**
 * The file's real type from its first bytes, whatever its name or declared type says
 * (docs/architecture.md#files-and-mail), read by the maintained `file-type` package, which also
 * reads MP4 and WebM containers. Only the formats the product accepts are known; anything else is
 * null.
 */
export async function detectFileType(head: Uint8Array): Promise<DetectedType | null> {
  const found = await fileTypeFromBuffer(head);
  return found && isKnown(found.mime) ? found.mime : null;
}

export const IMAGE_TYPES: ReadonlySet<DetectedType> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'image/heic',
  'image/heif',
]);

export const DOCUMENT_TYPES: ReadonlySet<DetectedType> = new Set([
  ...IMAGE_TYPES,
  'application/pdf',
]);

/** A dispute's evidence (docs/fair-play.md): a screenshot or a recording of the match. */
export const EVIDENCE_TYPES: ReadonlySet<DetectedType> = new Set([
  ...IMAGE_TYPES,
  'video/mp4',
  'video/webm',
]);

export const EXTENSION_BY_TYPE: Record<DetectedType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};
