import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { afterFirstPaint } from '#client/lib/first-paint.ts';

/**
 * Keeps the account socket open while someone is signed in, and only then: it opens when a user
 * appears, closes on sign-out, and starts afresh for a different user. The socket client and the
 * contracts of the events it applies are a chunk of their own, fetched once there is a user and
 * the first frame is drawn, so that the first paint does not wait for them.
 */
export function useAccountRealtime(userId: number | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (userId === null) return;
    let stop: (() => void) | undefined;
    let stopped = false;
    void afterFirstPaint()
      .then(() => import('./account-realtime.ts'))
      .then(({ connectAccountRealtime }) => {
        if (!stopped) stop = connectAccountRealtime(queryClient, userId);
      });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [queryClient, userId]);
}
