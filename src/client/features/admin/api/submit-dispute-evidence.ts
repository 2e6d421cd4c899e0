import { useMutation, useQueryClient } from '@tanstack/react-query';
import { submitEvidenceResponseSchema } from '#shared/contracts/chargebacks.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminChargebacksQueryKey } from './get-chargebacks.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

/** Sends a dispute's evidence to the bank, final (docs/chargebacks.md). */
export function submitDisputeEvidence(disputeId: string) {
  return postJson(
    `/api/admin/chargebacks/${encodeURIComponent(disputeId)}/submit`,
    {},
    submitEvidenceResponseSchema,
  );
}

export function useSubmitDisputeEvidence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitDisputeEvidence,
    onSuccess: (answer) => {
      toast({ title: answer.message, description: 'The bank now decides the dispute.' });
      void refreshAdminViews(queryClient, [adminChargebacksQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to submit the evidence'),
  });
}
