import { useId, useRef } from 'react';
import { CircleCheck, Upload } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { toast } from '#client/lib/toast.ts';
import { useUploadScreenshot } from '../api/upload-screenshot.ts';

export interface ScreenshotUploadProps {
  challengeId: number;
  /** Receives the uploaded file's URL, to put into the screenshot field. */
  onUploaded: (url: string) => void;
}

/** Upload an image instead of pasting a link; the bar shows how far the upload has got. */
export function ScreenshotUpload({ challengeId, onUploaded }: ScreenshotUploadProps) {
  const id = useId();
  const statusId = `${id}-status`;
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUploadScreenshot(challengeId);

  const startUpload = () => {
    const file = fileInput.current?.files?.[0];
    if (!file) {
      toast({
        title: 'NO FILE SELECTED',
        description: 'Please select a screenshot image to upload',
        variant: 'destructive',
      });
      return;
    }
    upload.mutate(file, { onSuccess: ({ url }) => onUploaded(url) });
  };

  return (
    <div className="space-y-2 rounded-lg border border-dashed border-ink-600 bg-ink-900/50 p-3">
      <Label htmlFor={id}>Screenshot image</Label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          ref={fileInput}
          id={id}
          type="file"
          accept="image/*"
          aria-describedby={statusId}
          disabled={upload.isPending}
          onChange={() => upload.reset()}
          className="block w-full min-w-0 cursor-pointer text-sm text-slate-300 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:font-display file:text-[0.7rem] file:font-semibold file:tracking-wider file:text-slate-100 hover:file:bg-ink-600"
        />
        <Button variant="outline" size="sm" disabled={upload.isPending} onClick={startUpload}>
          <Upload aria-hidden="true" />
          {upload.isPending ? 'UPLOADING...' : 'UPLOAD'}
        </Button>
      </div>
      {upload.isPending && (
        <progress
          className="upload-progress"
          aria-label="Upload progress"
          max={100}
          value={upload.progress}
        />
      )}
      <p id={statusId} className="text-xs" aria-live="polite">
        {upload.isPending && <span className="text-slate-300">Uploading… {upload.progress}%</span>}
        {upload.isSuccess && (
          <span className="inline-flex items-center gap-1 text-emerald-300">
            <CircleCheck aria-hidden="true" className="size-3.5" />
            Screenshot uploaded and linked below.
          </span>
        )}
        {upload.isError && <span className="font-medium text-red-400">{upload.error.message}</span>}
        {upload.isIdle && <span className="text-slate-400">Images only, up to 25MB.</span>}
      </p>
    </div>
  );
}
