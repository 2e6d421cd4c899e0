import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LIMIT_KEYS,
  responsibleGamingSchema,
  RESPONSIBLE_GAMING_MESSAGES,
  type LimitKey,
  type ResponsibleGaming,
} from '#shared/contracts/responsible-gaming.ts';
import { dollarNumberToCents, type Cents } from '#shared/money.ts';
import type { SelfExclusionMonths, TimeOutDays } from '#shared/play-breaks.ts';
import { getJson, postJson, requestJson } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast.ts';
import { userQueryKey } from '#client/features/auth/api/get-user.ts';

export const responsibleGamingQueryKey = ['responsible-gaming'] as const;

export function useResponsibleGaming(options: { fresh?: boolean } = {}) {
  return useQuery({
    queryKey: responsibleGamingQueryKey,
    queryFn: ({ signal }) => getJson('/api/responsible-gaming', responsibleGamingSchema, signal),
    // What is left changes with every deposit: a form that judges an amount reads it anew.
    ...(options.fresh ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** The limit that leaves the least to deposit now, and how much; null without limits. */
export function tightestRoom(rules: ResponsibleGaming): { key: LimitKey; left: Cents } | null {
  let tightest: { key: LimitKey; left: Cents } | null = null;
  for (const key of LIMIT_KEYS) {
    const { left } = rules.limits[key];
    if (left === null) continue;
    const cents = dollarNumberToCents(left);
    if (tightest === null || cents < tightest.left) tightest = { key, left: cents };
  }
  return tightest;
}

/** Dollars as the player typed them; null removes a limit. Keys left out keep theirs. */
export type LimitChanges = Partial<Record<LimitKey, string | null>>;

export function useSetLimits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: LimitChanges) =>
      requestJson('PUT', '/api/responsible-gaming/limits', responsibleGamingSchema, {
        body: changes,
      }),
    onSuccess: (rules) => {
      queryClient.setQueryData(responsibleGamingQueryKey, rules);
      toast({ title: RESPONSIBLE_GAMING_MESSAGES.limitsSaved });
    },
  });
}

export type BreakChoice = { days: TimeOutDays } | { months: SelfExclusionMonths };

/** Starts a time-out or a self-exclusion; the user is read again, for the banner and buttons. */
export function useTakeBreak() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choice: BreakChoice): Promise<ResponsibleGaming> =>
      'days' in choice
        ? postJson('/api/responsible-gaming/time-out', choice, responsibleGamingSchema)
        : postJson('/api/responsible-gaming/self-exclusion', choice, responsibleGamingSchema),
    onSuccess: (rules, choice) => {
      queryClient.setQueryData(responsibleGamingQueryKey, rules);
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      toast({
        title:
          'days' in choice
            ? RESPONSIBLE_GAMING_MESSAGES.timeOutStarted
            : RESPONSIBLE_GAMING_MESSAGES.selfExclusionStarted,
      });
    },
  });
}
