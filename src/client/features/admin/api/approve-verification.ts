import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminVerificationSchema, type AdminVerification } from '#shared/contracts/admin.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminVerificationsQueryKey } from './get-verifications.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface ApproveVerificationInput {
  verificationId: number;
  note?: string | undefined;
}

export function approveVerification({
  verificationId,
  note,
}: ApproveVerificationInput): Promise<AdminVerification> {
  return postJson(
    `/api/admin/verifications/${verificationId}/approve`,
    note ? { note } : {},
    adminVerificationSchema,
  );
}

export function useApproveVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: approveVerification,
    onSuccess: (verification) => {
      toast({
        title: 'License approved',
        description: `${verification.username} is now verified.`,
      });
      void refreshAdminViews(queryClient, [adminVerificationsQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to approve the license'),
  });
}
