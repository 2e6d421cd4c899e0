import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  submitScoresResponseSchema,
  type SubmitScoresResponse,
  type submitScoresBodySchema,
} from '#shared/contracts/challenges.ts';
import type { z } from '#shared/validation.ts';
import { ApiError, postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import {
  AUTH_ERROR_TOAST_MS,
  RESULTS_SUCCESS_TOAST_MS,
  SUBMISSION_FAILED_TOAST_MS,
} from '#client/lib/ui-constants.ts';
import { setCachedBalance } from '#client/features/auth/api/session-cache.ts';
import { invalidateChallenge } from './invalidate-challenges.ts';

export type SubmitScoresInput = z.output<typeof submitScoresBodySchema>;

export function submitScores(id: number, body: SubmitScoresInput): Promise<SubmitScoresResponse> {
  return postJson(`/api/challenges/${id}/submit`, body, submitScoresResponseSchema);
}

/**
 * docs/product.md#messages: the server's message, or the generic one when the request never got an
 * answer; a lost session gets its own advice.
 */
function submissionFailedToast(error: Error): void {
  if (
    error.message.includes('Unauthorized') ||
    (error instanceof ApiError && error.status === 401)
  ) {
    toast({
      title: 'Authentication Error',
      description:
        'You need to be logged in to submit results. Please refresh the page and try again.',
      variant: 'destructive',
      duration: AUTH_ERROR_TOAST_MS,
    });
    return;
  }
  toast({
    title: 'SUBMISSION FAILED',
    description:
      error instanceof ApiError
        ? error.message
        : 'There was an error submitting scores. Please try again.',
    variant: 'destructive',
    duration: SUBMISSION_FAILED_TOAST_MS,
  });
}

/**
 * `onSubmitted` is given here rather than to `mutate` because it must run even when the card that
 * sent the scores has already left the list (the challenge is no longer active).
 */
export function useSubmitScores(
  id: number,
  onSubmitted?: (result: SubmitScoresResponse, body: SubmitScoresInput) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitScoresInput) => submitScores(id, body),
    onSuccess: (result, body) => {
      toast({
        title: 'SCORES SUBMITTED',
        description:
          result.status === 'completed'
            ? 'The challenge has been completed and screenshot sent to admin.'
            : 'Your result and screenshot were sent to the admin for review.',
        duration: RESULTS_SUCCESS_TOAST_MS,
      });
      // Only the winner's own cache changes: for anyone else the id does not match.
      setCachedBalance(queryClient, result.updatedWinnerInfo.id, result.updatedWinnerInfo.balance);
      void invalidateChallenge(queryClient, id);
      onSubmitted?.(result, body);
    },
    onError: submissionFailedToast,
  });
}
