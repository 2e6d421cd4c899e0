/** Upload rules (SPEC §5, DESIGN §7), checked by the server and mirrored by the client. */
export const UPLOAD_BYTES_MAX = 25 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  noFile: 'Please select a file to upload',
  invalidType: 'Invalid file type',
  tooLarge: 'File too large. Please upload a file smaller than 25MB.',
} as const;
