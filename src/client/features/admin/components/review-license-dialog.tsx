import { useState } from 'react';
import { BadgeCheck, Eye, FileText, ShieldX } from 'lucide-react';
import { ADMIN_MESSAGES, type AdminVerification } from '#shared/contracts/admin.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { UPLOAD_PATH_PATTERN } from '#shared/contracts/uploads.ts';
import { useApproveVerification } from '../api/approve-verification.ts';
import { useRejectVerification } from '../api/reject-verification.ts';
import { ImageWithFallback } from './screenshot-view.tsx';

/** Types a browser shows in an <img>; HEIC, HEIF, TIFF and PDF are opened as files instead. */
const INLINE_IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
]);

export function fileSizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** "PDF", "JPEG": the part of the content type a person recognises. */
export function fileTypeLabel(contentType: string): string {
  return (contentType.split('/')[1] ?? contentType).toUpperCase();
}

/**
 * The licence itself. Its address comes from our own API; anything else is not loaded, so a
 * changed server cannot make the dashboard fetch from elsewhere.
 */
export function LicensePreview({ verification }: { verification: AdminVerification }) {
  if (!UPLOAD_PATH_PATTERN.test(verification.fileUrl)) {
    return <p className="text-sm text-red-300">The file address is not one of ours.</p>;
  }
  return (
    <div className="space-y-2">
      {INLINE_IMAGE_TYPES.has(verification.contentType) && (
        <ImageWithFallback
          src={verification.fileUrl}
          alt={`Driver's license uploaded by ${verification.username}`}
        />
      )}
      <a
        href={verification.fileUrl}
        target="_blank"
        rel="noopener noreferrer"
        className="inline-flex items-center gap-1.5 text-sm text-accent underline underline-offset-4 hover:text-accent-strong"
      >
        <FileText aria-hidden="true" className="size-4" />
        Open file ({fileTypeLabel(verification.contentType)},{' '}
        {fileSizeLabel(verification.sizeBytes)})
      </a>
    </div>
  );
}

function ReviewForm({
  verification,
  onDone,
}: {
  verification: AdminVerification;
  onDone: () => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const approve = useApproveVerification();
  const reject = useRejectVerification();
  const busy = approve.isPending || reject.isPending;

  const onApprove = () => {
    setError(undefined);
    approve.mutate(
      { verificationId: verification.id, note: note.trim() || undefined },
      { onSuccess: onDone },
    );
  };
  const onReject = () => {
    const trimmed = note.trim();
    if (!trimmed) {
      setError(ADMIN_MESSAGES.rejectionNoteRequired);
      return;
    }
    setError(undefined);
    reject.mutate({ verificationId: verification.id, note: trimmed }, { onSuccess: onDone });
  };

  return (
    <form noValidate className="space-y-5" onSubmit={(event) => event.preventDefault()}>
      <Field
        label="Note"
        error={error}
        hint="Optional when approving; required when rejecting. The player sees it."
      >
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={1000}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
          />
        )}
      </Field>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button className="sm:flex-1" disabled={busy} onClick={onApprove}>
          <BadgeCheck aria-hidden="true" />
          {approve.isPending ? 'APPROVING...' : 'APPROVE'}
        </Button>
        <Button variant="destructive" className="sm:flex-1" disabled={busy} onClick={onReject}>
          <ShieldX aria-hidden="true" />
          {reject.isPending ? 'REJECTING...' : 'REJECT'}
        </Button>
      </div>
    </form>
  );
}

/** Shows an uploaded licence; a pending one can be approved or rejected from here. */
export function ReviewLicenseDialog({ verification }: { verification: AdminVerification }) {
  const [open, setOpen] = useState(false);
  const pending = verification.status === 'pending';
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant={pending ? 'primary' : 'outline'}>
          <Eye aria-hidden="true" />
          {pending ? 'REVIEW' : 'VIEW LICENSE'}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-2xl!">
        <DialogHeader>
          <DialogTitle>Driver&apos;s License: {verification.username}</DialogTitle>
          <DialogDescription>
            {pending
              ? 'Check that the license is genuine, readable, and shows a player aged 21 or over.'
              : `This license was ${verification.status}.`}
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-5">
          <LicensePreview verification={verification} />
          {pending && <ReviewForm verification={verification} onDone={() => setOpen(false)} />}
        </div>
      </DialogContent>
    </Dialog>
  );
}
