import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { refreshSessionUser } from '#client/features/auth/api/session-cache.ts';

/** Browsers run a timer of more than 2^31 − 1 ms at once: longer waits go in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
/** Read a moment after the end, so that the server has seen it pass too. */
const AFTER_END_MS = 1000;
/** While the server still says paused (its clock or ours is off), asked again this often. */
const ASK_AGAIN_MS = 30_000;

/** When the pause in force ends: the earlier of a suspension's and a break's ends, if any. */
function pauseEnd(user: PublicUser | null): number | null {
  const ends = [user?.suspension?.until, user?.playBreak?.until]
    .filter((until): until is string => typeof until === 'string')
    .map((until) => Date.parse(until));
  return ends.length === 0 ? null : Math.min(...ends);
}

/**
 * A suspension or break with an end (docs/fair-play.md, docs/responsible-play.md) is over without a
 * reload: when it passes, the user is read again, and its banner and the paused panels give way to
 * play.
 */
export function useRefreshWhenPauseEnds(user: PublicUser | null): void {
  const queryClient = useQueryClient();
  const end = pauseEnd(user);
  useEffect(() => {
    if (end === null) return;
    let timer: ReturnType<typeof setTimeout>;
    const wait = () => {
      const left = end - Date.now();
      if (left <= 0) {
        void refreshSessionUser(queryClient);
        timer = setTimeout(wait, ASK_AGAIN_MS);
        return;
      }
      timer = setTimeout(wait, Math.min(left + AFTER_END_MS, LONGEST_TIMER_MS));
    };
    wait();
    return () => clearTimeout(timer);
  }, [end, queryClient]);
}
