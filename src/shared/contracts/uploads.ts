/**
 * Upload rules (docs/product.md#validation, docs/architecture.md#files-and-mail), checked by the
 * server and mirrored by the client.
 */
export const UPLOAD_BYTES_MAX = 25 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  noFile: 'Please select a file to upload',
  invalidType: 'Invalid file type',
  tooLarge: 'File too large. Please upload a file smaller than 25MB.',
} as const;

/**
 * Uploaded screenshots are linked by their own path; anything typed must be https. Here rather
 * than beside the score rules that use them, because this module builds no schema: the challenge
 * cards of the first page check links with them without waiting for zod.
 */
export const UPLOAD_PATH_PATTERN = /^\/api\/uploads\/[0-9a-f-]{36}$/;

export function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}
