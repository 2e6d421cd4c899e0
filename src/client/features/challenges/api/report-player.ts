import { useMutation } from '@tanstack/react-query';
import {
  reportPlayerResponseSchema,
  type ReportPlayerBody,
  type ReportPlayerResponse,
} from '#shared/contracts/reports.ts';
import { postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';

export interface ReportPlayerInput extends ReportPlayerBody {
  username: string;
}

/** Puts a report about another player in the admins' queue (docs/fair-play.md). */
export function reportPlayer({
  username,
  ...body
}: ReportPlayerInput): Promise<ReportPlayerResponse> {
  return postJson(
    `/api/players/${encodeURIComponent(username)}/report`,
    body,
    reportPlayerResponseSchema,
  );
}

export function useReportPlayer() {
  return useMutation({
    mutationFn: reportPlayer,
    onSuccess: (answer) => toast({ title: 'Report sent', description: answer.message }),
    onError: (error) => {
      toast({ title: 'Report not sent', description: error.message, variant: 'destructive' });
    },
  });
}
