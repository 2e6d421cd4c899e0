import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  LICENSE_ACCEPT,
  LICENSE_FIELD,
  uploadLicenseResponseSchema,
  type UploadLicenseResponse,
} from '#shared/contracts/profile.ts';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import { toast } from '#client/lib/toast.ts';
import { verificationQueryKey } from './get-verification.ts';

/** SPEC §5 and §8, word for word. */
export const LICENSE_MESSAGES = {
  noFile: UPLOAD_MESSAGES.noFile,
  invalidType: 'Invalid file type',
  invalidTypeHint: 'Please upload an image (PNG, JPEG, GIF, WEBP, HEIC, HEIF, TIFF, BMP) or a PDF.',
  tooLarge: 'File too large',
  tooLargeHint: 'Please upload a file smaller than 25MB.',
  failedFallback: 'Failed to upload file. Please try again.',
  network: 'Network error occurred. Please try again.',
} as const;

const ACCEPTED = new Set(LICENSE_ACCEPT.split(','));

export interface FileProblem {
  title: string;
  description: string;
}

/**
 * A file the server would refuse, judged by its declared type or its extension (some systems
 * declare no type for HEIC). The server decides by the bytes themselves; this only spares the
 * player a 25 MB upload that could never succeed.
 */
export function licenseFileProblem(file: File): FileProblem | null {
  const dot = file.name.lastIndexOf('.');
  const extension = dot >= 0 ? file.name.slice(dot).toLowerCase() : '';
  if (!ACCEPTED.has(file.type.toLowerCase()) && !ACCEPTED.has(extension)) {
    return { title: LICENSE_MESSAGES.invalidType, description: LICENSE_MESSAGES.invalidTypeHint };
  }
  if (file.size > UPLOAD_BYTES_MAX) {
    return { title: LICENSE_MESSAGES.tooLarge, description: LICENSE_MESSAGES.tooLargeHint };
  }
  return null;
}

/** Why an upload failed: the server said no (with its words), or no answer came at all. */
export class LicenseUploadError extends Error {
  override readonly name = 'LicenseUploadError';
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

/**
 * Sends the licence as multipart field `driversLicense`. XMLHttpRequest rather than fetch because
 * only it reports upload progress, which a 25 MB photo over a phone connection needs.
 */
export function uploadLicense(
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadLicenseResponse> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/user/upload-license');
    request.setRequestHeader('Accept', 'application/json');
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress(Math.round((event.loaded / event.total) * 100));
      }
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        const parsed = uploadLicenseResponseSchema.safeParse(parseJson(request.responseText));
        if (parsed.success) {
          onProgress(100);
          resolve(parsed.data);
          return;
        }
      }
      reject(
        new LicenseUploadError(
          'refused',
          messageFromBody(request.responseText) ?? LICENSE_MESSAGES.failedFallback,
        ),
      );
    };
    request.onerror = () => reject(new LicenseUploadError('network', LICENSE_MESSAGES.network));
    const form = new FormData();
    form.append(LICENSE_FIELD, file);
    request.send(form);
  });
}

/** The upload with its progress (0 to 100), its SPEC §8 toasts and the status refresh. */
export function useUploadLicense() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (file: File) => {
      setProgress(0);
      return uploadLicense(file, setProgress);
    },
    onSuccess: ({ message }) => {
      toast({ title: 'VERIFICATION SUCCESSFUL', description: message });
      void queryClient.invalidateQueries({ queryKey: verificationQueryKey });
    },
    onError: (error) => {
      setProgress(0);
      if (error instanceof LicenseUploadError && error.kind === 'network') {
        toast({ title: 'UPLOAD FAILED', description: error.message, variant: 'destructive' });
        return;
      }
      toast({
        title: 'VERIFICATION FAILED',
        description: error.message || LICENSE_MESSAGES.failedFallback,
        variant: 'destructive',
      });
    },
  });
  return { ...mutation, progress };
}
