import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { uploadResponseSchema } from '#shared/contracts/challenges.ts';
import {
  UPLOAD_BYTES_MAX,
  UPLOAD_MESSAGES as SERVER_UPLOAD_MESSAGES,
} from '#shared/contracts/uploads.ts';
import type { z } from '#shared/validation.ts';
import { toast } from '#client/lib/toast.ts';

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

function messageFromBody(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      return body.message || null;
    }
  } catch {
    // Not JSON (a proxy's error page, say): the generic message says enough.
  }
  return null;
}

/**
 * Sends the screenshot as multipart field `screenshot`. XMLHttpRequest rather than fetch because
 * only it reports upload progress, which SPEC §7 asks for.
 */
export function uploadScreenshot(
  challengeId: number,
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadedScreenshot> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/challenges/${challengeId}/upload-screenshot`);
    request.setRequestHeader('Accept', 'application/json');
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.round((event.loaded / event.total) * 100));
      }
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        const parsed = uploadResponseSchema.safeParse(safeJson(request.responseText));
        if (parsed.success) {
          onProgress(100);
          resolve(parsed.data);
          return;
        }
        reject(new Error(UPLOAD_MESSAGES.failed));
        return;
      }
      reject(new Error(messageFromBody(request.responseText) ?? UPLOAD_MESSAGES.failed));
    };
    request.onerror = () => reject(new Error(UPLOAD_MESSAGES.network));
    const form = new FormData();
    form.append('screenshot', file);
    request.send(form);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The upload with its progress (0 to 100) for the bar under the file picker. */
export function useUploadScreenshot(challengeId: number) {
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: async (file: File) => {
      const problem = screenshotFileProblem(file);
      if (problem) throw new Error(problem);
      setProgress(0);
      return uploadScreenshot(challengeId, file, setProgress);
    },
    onError: () => {
      setProgress(0);
      toast({
        title: 'UPLOAD FAILED',
        description: 'There was a problem uploading your screenshot',
        variant: 'destructive',
      });
    },
  });
  return { ...mutation, progress };
}
