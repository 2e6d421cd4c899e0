import { useId, useRef, useState } from 'react';
import { IdCard, Upload } from 'lucide-react';
import { LICENSE_ACCEPT } from '#shared/contracts/profile.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { FieldError } from '#client/components/ui/field.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { toast } from '#client/lib/toast.ts';
import { LICENSE_MESSAGES, licenseFileProblem, useUploadLicense } from '../api/upload-license.ts';

function UploadLicenseForm({ onUploaded }: { onUploaded: () => void }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const fileInput = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadLicense();

  const chosenFile = () => fileInput.current?.files?.[0];

  /** Checks a file as soon as it is picked, so a wrong one is refused before any upload. */
  const check = (file: File | undefined): boolean => {
    upload.reset();
    if (!file) {
      setProblem(null);
      return true;
    }
    const found = licenseFileProblem(file);
    setProblem(found ? `${found.title}. ${found.description}` : null);
    if (found) toast({ ...found, variant: 'destructive' });
    return !found;
  };

  const submit = () => {
    const file = chosenFile();
    if (!file) {
      setProblem(LICENSE_MESSAGES.noFile);
      return;
    }
    if (!check(file)) return;
    upload.mutate(file, { onSuccess: onUploaded });
  };

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="space-y-2 rounded-lg border border-dashed border-ink-600 bg-ink-900/50 p-4">
        <Label htmlFor={id}>Driver&apos;s License</Label>
        <input
          ref={fileInput}
          id={id}
          type="file"
          accept={LICENSE_ACCEPT}
          aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          aria-invalid={Boolean(problem)}
          disabled={upload.isPending}
          onChange={(event) => check(event.currentTarget.files?.[0])}
          className="block w-full min-w-0 cursor-pointer text-sm text-slate-300 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-ink-700 file:px-3 file:py-2 file:font-display file:text-[0.7rem] file:font-semibold file:tracking-wider file:text-slate-100 hover:file:bg-ink-600"
        />
        <p id={hintId} className="text-xs text-slate-400">
          A photo or scan of the front: PNG, JPEG, GIF, WEBP, HEIC, HEIF, TIFF, BMP or PDF, up to
          25MB. Only our staff can see it.
        </p>
        {problem && <FieldError id={errorId}>{problem}</FieldError>}
        {upload.isPending && (
          <>
            <progress
              className="upload-progress"
              aria-label="Upload progress"
              max={100}
              value={upload.progress}
            />
            <p className="text-xs text-slate-300" aria-live="polite">
              Uploading… {upload.progress}%
            </p>
          </>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={upload.isPending}>
        <Upload aria-hidden="true" />
        {upload.isPending ? 'UPLOADING...' : 'UPLOAD LICENSE'}
      </Button>
    </form>
  );
}

/** docs/product.md#screens: the Upload Driver's License (ID verification) dialog. */
export function UploadLicenseDialog({ label }: { label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" className="w-full">
          <IdCard aria-hidden="true" />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Upload Driver&apos;s License</DialogTitle>
          <DialogDescription>
            We verify every player&apos;s identity and age before their first payout.
          </DialogDescription>
        </DialogHeader>
        <UploadLicenseForm onUploaded={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
