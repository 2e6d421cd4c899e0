import { useState } from 'react';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import type { z } from '#shared/validation.ts';

/** Why an upload failed: the server refused it (with its words), or no answer came at all. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly kind: 'refused' | 'network';

  constructor(kind: 'refused' | 'network', message: string) {
    super(message);
    this.kind = kind;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page, say): the caller's fallback words say enough.
    return undefined;
  }
}

function messageFromBody(text: string): string | null {
  const body = parseJson(text);
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message || null;
  }
  return null;
}

export interface Upload<T> {
  url: string;
  /** The multipart field the server reads the file from. */
  field: string;
  file: File;
  /** The answer's contract. */
  schema: z.ZodType<T>;
  onProgress: (percent: number) => void;
  /** The words when the server refuses without its own, or answers what is not the contract. */
  refusedMessage: string;
  /** The words when no answer came. */
  networkMessage: string;
}

/**
 * Sends one file as multipart form data with its progress (0 to 100). XMLHttpRequest rather than
 * fetch because only it reports upload progress, which a 25 MB photo over a phone connection
 * needs. Rejects with an `UploadError`.
 */
export function uploadWithProgress<T>(upload: Upload<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', upload.url);
    request.setRequestHeader('Accept', 'application/json');
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        upload.onProgress(Math.round((event.loaded / event.total) * 100));
      }
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        const parsed = upload.schema.safeParse(parseJson(request.responseText));
        if (parsed.success) {
          upload.onProgress(100);
          resolve(parsed.data);
          return;
        }
      }
      reject(
        new UploadError('refused', messageFromBody(request.responseText) ?? upload.refusedMessage),
      );
    };
    request.onerror = () => reject(new UploadError('network', upload.networkMessage));
    const form = new FormData();
    form.append(upload.field, upload.file);
    request.send(form);
  });
}

/**
 * A mutation that uploads a file, with the progress (0 to 100) for the bar under the file
 * picker: back to 0 when an upload starts or fails.
 */
export function useUploadMutation<T>(
  send: (file: File, onProgress: (percent: number) => void) => Promise<T>,
  options: Omit<UseMutationOptions<T, Error, File>, 'mutationFn'> = {},
) {
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    ...options,
    mutationFn: (file: File) => {
      setProgress(0);
      return send(file, setProgress);
    },
    onError: (error, file, result, context) => {
      setProgress(0);
      options.onError?.(error, file, result, context);
    },
  });
  return { ...mutation, progress };
}
