import { uploadResponseSchema } from '#shared/contracts/challenges.ts';
import {
  UPLOAD_BYTES_MAX,
  UPLOAD_MESSAGES as SERVER_UPLOAD_MESSAGES,
} from '#shared/contracts/uploads.ts';
import type { z } from '#shared/validation.ts';
import { toast } from '#client/lib/toast.ts';
import { uploadWithProgress, useUploadMutation } from '#client/lib/upload-with-progress.ts';

export type UploadedScreenshot = z.infer<typeof uploadResponseSchema>;

/**
 * The server's upload rules (25 MB, images only) and its words for breaking them. They are
 * checked here too so that a player learns about a 40 MB video before sending it anywhere.
 */
export const SCREENSHOT_BYTES_MAX = UPLOAD_BYTES_MAX;
export const UPLOAD_MESSAGES = {
  tooLarge: SERVER_UPLOAD_MESSAGES.tooLarge,
  invalidType: SERVER_UPLOAD_MESSAGES.invalidType,
  failed: 'Upload failed',
  network: 'Network error during upload',
} as const;

/** A file the server would refuse, worded as the server would; null when it may be sent. */
export function screenshotFileProblem(file: File): string | null {
  if (file.type && !file.type.startsWith('image/')) return UPLOAD_MESSAGES.invalidType;
  if (file.size > SCREENSHOT_BYTES_MAX) return UPLOAD_MESSAGES.tooLarge;
  return null;
}

/** Sends the screenshot as multipart field `screenshot`, with its progress. */
export function uploadScreenshot(
  challengeId: number,
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadedScreenshot> {
  return uploadWithProgress({
    url: `/api/challenges/${challengeId}/upload-screenshot`,
    field: 'screenshot',
    file,
    schema: uploadResponseSchema,
    onProgress,
    refusedMessage: UPLOAD_MESSAGES.failed,
    networkMessage: UPLOAD_MESSAGES.network,
  });
}

/** The upload with its progress (0 to 100) for the bar under the file picker. */
export function useUploadScreenshot(challengeId: number) {
  return useUploadMutation(
    async (file, onProgress) => {
      const problem = screenshotFileProblem(file);
      if (problem) throw new Error(problem);
      return uploadScreenshot(challengeId, file, onProgress);
    },
    {
      onError: () => {
        toast({
          title: 'UPLOAD FAILED',
          description: 'There was a problem uploading your screenshot',
          variant: 'destructive',
        });
      },
    },
  );
}
