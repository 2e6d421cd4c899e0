import { useQueryClient } from '@tanstack/react-query';
import {
  LICENSE_ACCEPT,
  LICENSE_FIELD,
  uploadLicenseResponseSchema,
  type UploadLicenseResponse,
} from '#shared/contracts/profile.ts';
import { UPLOAD_BYTES_MAX, UPLOAD_MESSAGES } from '#shared/contracts/uploads.ts';
import { toast } from '#client/lib/toast.ts';
import {
  UploadError,
  uploadWithProgress,
  useUploadMutation,
} from '#client/lib/upload-with-progress.ts';
import { verificationQueryKey } from './get-verification.ts';

/** docs/product.md#validation, docs/product.md#messages, word for word. */
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

/** Sends the licence as multipart field `driversLicense`, with its progress. */
export function uploadLicense(
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadLicenseResponse> {
  return uploadWithProgress({
    url: '/api/user/upload-license',
    field: LICENSE_FIELD,
    file,
    schema: uploadLicenseResponseSchema,
    onProgress,
    refusedMessage: LICENSE_MESSAGES.failedFallback,
    networkMessage: LICENSE_MESSAGES.network,
  });
}

/**
 * The upload with its progress (0 to 100), its docs/product.md#messages toasts and the status
 * refresh.
 */
export function useUploadLicense() {
  const queryClient = useQueryClient();
  return useUploadMutation(uploadLicense, {
    onSuccess: ({ message }) => {
      toast({ title: 'VERIFICATION SUCCESSFUL', description: message });
      void queryClient.invalidateQueries({ queryKey: verificationQueryKey });
    },
    onError: (error) => {
      if (error instanceof UploadError && error.kind === 'network') {
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
}
