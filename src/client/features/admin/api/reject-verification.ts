import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminVerificationSchema, type AdminVerification } from '#shared/contracts/admin.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminVerificationsQueryKey } from './get-verifications.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface RejectVerificationInput {
  verificationId: number;
  /** Shown to the player on their profile. */
  note: string;
}

export function rejectVerification({
  verificationId,
  note,
}: RejectVerificationInput): Promise<AdminVerification> {
  return postJson(
    `/api/admin/verifications/${verificationId}/reject`,
    { note },
    adminVerificationSchema,
  );
}

export function useRejectVerification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rejectVerification,
    onSuccess: (verification) => {
      toast({
        title: 'License rejected',
        description: `${verification.username} will see your note on their profile.`,
      });
      void refreshAdminViews(queryClient, [adminVerificationsQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to reject the license'),
  });
}
