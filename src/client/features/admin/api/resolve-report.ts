import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminReportSchema,
  type AdminReport,
  type ResolveReportBody,
} from '#shared/contracts/reports.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { adminErrorToast } from '../lib/admin-error-toast.ts';
import { adminReportsQueryKey } from './get-reports.ts';
import { refreshAdminViews } from './invalidate-admin.ts';

export interface ResolveReportInput extends ResolveReportBody {
  reportId: number;
}

/** Closes an open report: dismissed, or actioned (the admin did something about it). */
export function resolveReport({ reportId, ...body }: ResolveReportInput): Promise<AdminReport> {
  return postJson(`/api/admin/reports/${reportId}/resolve`, body, adminReportSchema);
}

export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveReport,
    onSuccess: (report) => {
      toast({
        title: report.status === 'dismissed' ? 'Report dismissed' : 'Report marked actioned',
        description: `The report about ${report.reported.username} is closed.`,
      });
      void refreshAdminViews(queryClient, [adminReportsQueryKey]);
    },
    onError: (error) => adminErrorToast(error, 'Failed to resolve report'),
  });
}
