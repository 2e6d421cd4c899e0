import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChallengeView, Evidence, FairPlayRules } from '#shared/contracts/challenges.ts';
import { getJson, postJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';
import { loadChallengeSchema } from './get-challenge.ts';
import { storeChallenge } from './invalidate-challenges.ts';

// What a result under review, a match that may not happen and a dispute's evidence need from the
// server (docs/fair-play.md). The contracts load with the first call, as the challenge's own do.

async function loadRulesSchema() {
  return (await import('#shared/contracts/challenges.ts')).fairPlayRulesSchema;
}

export async function loadEvidenceListSchema() {
  const { evidenceSchema } = await import('#shared/contracts/challenges.ts');
  return evidenceSchema.array();
}

async function loadEvidenceSchema() {
  return (await import('#shared/contracts/challenges.ts')).evidenceSchema;
}

export const fairPlayRulesQueryOptions = queryOptions({
  queryKey: ['challenges', 'rules'],
  queryFn: ({ signal }): Promise<FairPlayRules> =>
    getJson('/api/challenges/rules', loadRulesSchema, signal),
  staleTime: Infinity,
});

export function useFairPlayRules() {
  return useQuery(fairPlayRulesQueryOptions);
}

export function evidenceQueryKey(challengeId: number) {
  return ['challenges', 'evidence', challengeId] as const;
}

export function useEvidence(challengeId: number, enabled: boolean) {
  return useQuery({
    queryKey: evidenceQueryKey(challengeId),
    queryFn: ({ signal }): Promise<Evidence[]> =>
      getJson(`/api/challenges/${challengeId}/evidence`, loadEvidenceListSchema, signal),
    enabled,
  });
}

/** A mutation on one challenge that answers the challenge: stored, and the balance asked again. */
function useChallengeAction(
  path: (id: number) => string,
  messages: { success: { title: string; description: string }; failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<ChallengeView> =>
      postJson(path(id), undefined, loadChallengeSchema),
    onSuccess: (challenge) => {
      toast(messages.success);
      void storeChallenge(queryClient, challenge);
      void refreshSessionUser(queryClient);
    },
    onError: (error) => {
      toast({ title: messages.failure, description: error.message, variant: 'destructive' });
    },
  });
}

/** The opponent of the reporter stands behind the result: the winner is paid now. */
export function useConfirmResult() {
  return useChallengeAction((id) => `/api/challenges/${id}/confirm`, {
    success: { title: 'Result confirmed', description: 'The winner has been paid.' },
    failure: 'Could not confirm the result',
  });
}

/** A player of an accepted match asks to call it off; both asking refunds both stakes. */
export function useRequestCancel() {
  return useChallengeAction((id) => `/api/challenges/${id}/cancel`, {
    success: {
      title: 'Cancel requested',
      description: 'When your opponent agrees, both stakes are refunded.',
    },
    failure: 'Could not request the cancel',
  });
}

/** The opponent never showed: the match goes to an admin. */
export function useReportNoShow() {
  return useChallengeAction((id) => `/api/challenges/${id}/no-show`, {
    success: {
      title: 'No-show reported',
      description: 'An admin will decide; add your evidence on this page.',
    },
    failure: 'Could not report the no-show',
  });
}

function messageOf(text: string, status: number): string {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
      return body.message;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return `${status}: ${text || 'Request failed'}`;
}

/**
 * Sends a statement and/or a file as multipart to an evidence route (a challenge's or a
 * tournament match's): `statement` first, then `file`.
 */
export async function postEvidence(
  path: string,
  input: { statement: string; file: File | null },
): Promise<Evidence> {
  const form = new FormData();
  form.append('statement', input.statement);
  if (input.file) form.append('file', input.file);
  const response = await fetch(path, {
    method: 'POST',
    headers: { Accept: 'application/json' },
    credentials: 'include',
    cache: 'no-store',
    body: form,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(messageOf(text, response.status));
  const schema = await loadEvidenceSchema();
  return schema.parse(JSON.parse(text));
}

export function addEvidence(
  challengeId: number,
  input: { statement: string; file: File | null },
): Promise<Evidence> {
  return postEvidence(`/api/challenges/${challengeId}/evidence`, input);
}

export function useAddEvidence(challengeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { statement: string; file: File | null }) =>
      addEvidence(challengeId, input),
    onSuccess: () => {
      toast({ title: 'Evidence added', description: 'The admin will see it beside the dispute.' });
      void queryClient.invalidateQueries({ queryKey: evidenceQueryKey(challengeId) });
    },
    onError: (error) => {
      toast({
        title: 'Could not add evidence',
        description: error.message,
        variant: 'destructive',
      });
    },
  });
}
