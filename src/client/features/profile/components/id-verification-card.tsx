import { useId, type ReactNode } from 'react';
import { BadgeCheck, Clock, ShieldAlert, ShieldQuestion, TriangleAlert } from 'lucide-react';
import type { VerificationStatus } from '#shared/contracts/profile.ts';
import { Badge, type BadgeVariant } from '#client/components/ui/badge.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { formatDateTime } from '#client/lib/format.ts';
import { useVerification } from '../api/get-verification.ts';
import { UploadLicenseDialog } from './upload-license-dialog.tsx';

const STATUS_DISPLAY: Record<
  VerificationStatus['status'],
  { label: string; variant: BadgeVariant; icon: typeof Clock; trigger: string }
> = {
  none: {
    label: 'NOT VERIFIED',
    variant: 'neutral',
    icon: ShieldQuestion,
    trigger: "Upload Driver's License",
  },
  pending: {
    label: 'PENDING REVIEW',
    variant: 'warning',
    icon: Clock,
    trigger: 'Replace Uploaded License',
  },
  approved: {
    label: 'VERIFIED',
    variant: 'success',
    icon: BadgeCheck,
    trigger: 'Upload a New License',
  },
  rejected: {
    label: 'REJECTED',
    variant: 'danger',
    icon: ShieldAlert,
    trigger: "Upload Driver's License Again",
  },
};

function explanation(verification: VerificationStatus): ReactNode {
  const submitted = verification.submittedAt ? formatDateTime(verification.submittedAt) : null;
  const reviewed = verification.reviewedAt ? formatDateTime(verification.reviewedAt) : null;
  switch (verification.status) {
    case 'none':
      return "Upload a photo of your driver's license to verify your identity and age.";
    case 'pending':
      return `Your license${submitted ? `, uploaded ${submitted},` : ''} is waiting for review.`;
    case 'approved':
      return `Your identity is verified${reviewed ? ` (reviewed ${reviewed})` : ''}.`;
    case 'rejected':
      return `Your license was not accepted${reviewed ? ` (reviewed ${reviewed})` : ''}. Please upload a clearer photo.`;
  }
}

/**
 * The product's licence upload (docs/product.md#screens), with the review status the admin's
 * decision sets (issue 6).
 */
export function IdVerificationCard() {
  const titleId = useId();
  const verification = useVerification();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>ID Verification</CardTitle>
        <CardDescription>Players must be 21+ and in a permitted location.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {verification.isPending ? (
          <div className="flex justify-center py-2">
            <Spinner label="Loading verification status" />
          </div>
        ) : verification.data ? (
          <VerificationSummary verification={verification.data} />
        ) : (
          <p className="flex items-center gap-2 text-sm text-slate-300">
            <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-amber-300" />
            The verification status could not be loaded.
          </p>
        )}
        <UploadLicenseDialog label={STATUS_DISPLAY[verification.data?.status ?? 'none'].trigger} />
      </CardContent>
    </Card>
  );
}

function VerificationSummary({ verification }: { verification: VerificationStatus }) {
  const display = STATUS_DISPLAY[verification.status];
  const Icon = display.icon;
  return (
    <div className="space-y-2">
      <Badge variant={display.variant}>
        <Icon aria-hidden="true" className="size-3.5" />
        {display.label}
      </Badge>
      <p className="text-sm text-slate-300">{explanation(verification)}</p>
      {verification.note && (
        <p className="rounded-md border border-ink-600 bg-ink-900/60 p-3 text-sm text-slate-200">
          <span className="font-semibold text-slate-100">Reviewer&apos;s note: </span>
          {verification.note}
        </p>
      )}
    </div>
  );
}
